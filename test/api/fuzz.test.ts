// Property-based fuzz of the POST /v1/transfers body (CONTRACT §2): whatever arrives, the API
// never answers 5xx, every 4xx is problem+json, every 202 is a transfer, and a rejected request
// writes nothing. Accounts have no money, so an accepted body ends at once (insufficient
// funds) and sends nothing to the provider.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { problemSchema, transferSchema } from "../../src/contract/schemas.ts";
import { pixKeyTypes } from "../../src/lib/ids.ts";
import { call, clientHeaders } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { knownValidKeys } from "../support/valid-keys.ts";
import { emptyAccount, footprint } from "./helpers.ts";
import { rateLimitConfig } from "./wrangler-config.ts";

const pool = filePool(2);

/** Requests per account, well inside the rate limit, so every answer is about the body. */
const requestsPerAccount = Math.floor(rateLimitConfig("TRANSFER_RATE_LIMIT").limit / 2);

/** A fresh account every `requestsPerAccount` requests. */
class AccountRotation {
  private accountId: string | undefined;
  private used = 0;

  async next(): Promise<string> {
    if (this.accountId === undefined || this.used >= requestsPerAccount) {
      this.accountId = await emptyAccount("fuzz");
      this.used = 0;
    }
    this.used += 1;
    return this.accountId;
  }
}

/** Valid keys of each type, many in a spelling that needs normalising. */
const validKeys = fc.constantFrom(...knownValidKeys.map(([type, input]) => ({ pix_key_type: type, pix_key: input })));

const anyKey = fc.record({
  pix_key_type: fc.oneof(fc.constantFrom(...pixKeyTypes), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(undefined)),
  pix_key: fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.constant(null), fc.constant(undefined)),
});

/** Mostly `valid`, sometimes `invalid`: bodies with one or two things wrong are the interesting ones. */
function mostly<T>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: invalid });
}

/** Objects near a valid transfer; `undefined` drops the field from the JSON. */
const nearlyValidBody = fc
  .record({
    key: mostly(validKeys, anyKey),
    amount_cents: mostly(
      fc.integer({ min: 1, max: 10_000_000 }),
      fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(undefined)),
    ),
    description: mostly(fc.option(fc.string({ maxLength: 140 })), fc.oneof(fc.string({ minLength: 141, maxLength: 200 }), fc.integer())),
    extra: mostly(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 })),
  })
  .map(({ key, ...rest }) => ({ ...(key as object), ...rest }));

/** What is sent: raw text, arbitrary JSON, or an object close to a valid transfer. */
const requestBody = fc.oneof(
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 5, arbitrary: nearlyValidBody.map((value) => JSON.stringify(value)) },
);

describe("POST /v1/transfers under fuzzed bodies", () => {
  it("never answers 5xx, answers 4xx as problem+json, and writes only for what it accepts", async () => {
    const accounts = new AccountRotation();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(requestBody, async (body) => {
        const accountId = await accounts.next();
        const before = await footprint(pool, accountId);
        const response = await call("/v1/transfers", {
          method: "POST",
          headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
          body,
        });
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        const after = await footprint(pool, accountId);
        if (response.status === 202) {
          expect(response.headers.get("content-type")).toBe("application/json");
          const transfer = transferSchema.parse(JSON.parse(text));
          // No money: refused at the hold, or earlier by a limit rule.
          expect(transfer.state).toBe("compensated");
          expect(["insufficient_funds", "limit_exceeded"]).toContain(transfer.failure_reason);
          accepted += 1;
          expect(after.transfers).toBe(before.transfers + 1);
          expect(after.balanceCents).toBe(0);
        } else {
          expect(response.status, text).toBe(400);
          expect(response.headers.get("content-type")).toBe("application/problem+json");
          expect(problemSchema.parse(JSON.parse(text)).errors?.length).toBeGreaterThan(0);
          expect(after).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
    // The generators reach the accepting path too, not only the rejecting one.
    expect(accepted).toBeGreaterThan(0);
  });
});
