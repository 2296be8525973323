// GET /v1/transfers (CONTRACT §2): the caller's transfers newest first, `limit` from 1 to 100,
// and a cursor that walks every page with no duplicate and no gap.
import { beforeAll, describe, expect, it } from "vitest";
import { transferPageSchema, transferSchema } from "../../src/contract/schemas.ts";
import { listLimitMax } from "../../src/http/transfer-requests.ts";
import { call, clientHeaders, createTransfer } from "../support/api.ts";
import { emptyAccount, expectJson, expectValidationProblem, validTransfer } from "./helpers.ts";

const transferCount = 7;
let accountId: string;
/** Ids in creation order. */
const createdIds: string[] = [];

beforeAll(async () => {
  // No money: each transfer ends at once (insufficient funds), so the list is stable.
  accountId = await emptyAccount("page");
  for (let i = 0; i < transferCount; i++) {
    const response = await createTransfer(accountId, { ...validTransfer, amount_cents: 100 + i });
    createdIds.push((await expectJson(response, 202, transferSchema)).id);
  }
});

async function list(query: string) {
  return call(`/v1/transfers${query}`, { headers: await clientHeaders(accountId) });
}

describe("GET /v1/transfers", () => {
  it("lists the caller's transfers newest first, 20 by default", async () => {
    const page = await expectJson(await list(""), 200, transferPageSchema);
    expect(page.data.map((t) => t.id)).toEqual([...createdIds].reverse());
    expect(page.next_cursor).toBeNull();
    const createdAt = page.data.map((t) => Date.parse(t.created_at));
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
  });

  it("walks every page with the cursor, without duplicates or gaps", async () => {
    for (const limit of [1, 2, 3, transferCount - 1, transferCount, listLimitMax]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = await expectJson(await list(query), 200, transferPageSchema);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((t) => t.id));
        cursor = page.next_cursor;
        pages += 1;
        expect(pages).toBeLessThanOrEqual(transferCount + 1);
      } while (cursor !== null);
      expect(seen, `limit ${limit}`).toEqual([...createdIds].reverse());
      expect(pages).toBe(Math.max(1, Math.ceil(transferCount / limit)));
    }
  });

  it("gives no cursor on a page that ends exactly at the last transfer", async () => {
    const page = await expectJson(await list(`?limit=${transferCount}`), 200, transferPageSchema);
    expect(page.data).toHaveLength(transferCount);
    expect(page.next_cursor).toBeNull();
  });

  it.each([
    ["0", "?limit=0"],
    ["101", `?limit=${listLimitMax + 1}`],
    ["negative", "?limit=-1"],
    ["not a number", "?limit=ten"],
    ["a fraction", "?limit=2.5"],
  ])("answers 400 to a limit of %s", async (_label, query) => {
    await expectValidationProblem(await list(query), "limit");
  });

  it.each([
    ["garbage", "not-a-cursor"],
    ["base64 of something else", btoa(JSON.stringify({ hello: "world" }))],
    ["a cursor with a bad time", btoa(JSON.stringify(["yesterday", crypto.randomUUID()]))],
    ["an overlong cursor", "a".repeat(201)],
    ["forged with a bare number for its time", forged(["1", crypto.randomUUID()])],
    ["forged in the year 275760", forged(["+275760-09-13T00:00:00.000Z", crypto.randomUUID()])],
    ["forged with the year 275760 in four-digit form", forged(["275760-09-13T00:00:00+00:00", crypto.randomUUID()])],
    ["forged on February 30", forged(["2026-02-30T10:00:00.123456+00:00", crypto.randomUUID()])],
    ["forged with an uppercase id", forged(["2026-02-03T10:00:00.123456+00:00", crypto.randomUUID().toUpperCase()])],
    ["a made-up position of a real time", forged(["2026-12-01T06:22:10.123456+00:00", crypto.randomUUID()])],
    ["forged with a UTC offset PostgreSQL refuses", forged(["2026-12-01T06:22:10+16:00", crypto.randomUUID()])],
    ["a real position in the API's form with a made-up seal", sealedLooking(["2026-12-01T06:22:10.123456+00:00", crypto.randomUUID()])],
    ["a +16:00 offset in the API's form", sealedLooking(["2026-12-01T06:22:10+16:00", crypto.randomUUID()])],
    ["with a NUL in it", "abc\u0000def"],
  ])("answers 400 to a cursor that is %s", async (_label, cursor) => {
    await expectValidationProblem(await list(`?cursor=${encodeURIComponent(cursor)}`), "cursor");
  });

  it("answers 400 to an issued cursor with its position altered, and to another account's cursor", async () => {
    const first = await expectJson(await list("?limit=2"), 200, transferPageSchema);
    const issued = first.next_cursor ?? "";
    const [position = "", seal = ""] = issued.split(".");
    const decoded = new TextDecoder().decode(base64UrlBytes(position));
    // One step later in time: still well-formed, still a real time, not what was issued.
    const altered = decoded.replace(/(\d)(\+00:00|Z)/, (_all, digit: string, zone: string) => `${(Number(digit) + 1) % 10}${zone}`);
    expect(altered).not.toBe(decoded);
    await expectValidationProblem(await list(`?cursor=${encodeURIComponent(`${forged(JSON.parse(altered))}.${seal}`)}`), "cursor");
    const other = await emptyAccount("page");
    const foreign = await call(`/v1/transfers?cursor=${encodeURIComponent(issued)}`, { headers: await clientHeaders(other) });
    await expectValidationProblem(foreign, "cursor");
    // The issued one still pages.
    expect((await list(`?limit=2&cursor=${encodeURIComponent(issued)}`)).status).toBe(200);
  });

  it("answers 400 to an unknown query parameter", async () => {
    await expectValidationProblem(await list("?page=2"), "");
  });

  it("answers an empty page to an account without transfers", async () => {
    const other = await emptyAccount("page");
    const response = await call("/v1/transfers", { headers: await clientHeaders(other) });
    expect(await expectJson(response, 200, transferPageSchema)).toEqual({ data: [], next_cursor: null });
  });
});

/** A position in the API's own encoding (base64url of a JSON pair) around values it never issues. */
function forged(pair: readonly [string, string]): string {
  return btoa(JSON.stringify(pair)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** The issued cursor's shape, position and a 32-byte tag, with a tag the API never made. */
function sealedLooking(pair: readonly [string, string]): string {
  const tag = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  return `${forged(pair)}.${tag.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")}`;
}

function base64UrlBytes(text: string): Uint8Array {
  const binary = atob(
    text
      .replaceAll("-", "+")
      .replaceAll("_", "/")
      .padEnd(Math.ceil(text.length / 4) * 4, "="),
  );
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
