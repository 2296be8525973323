// Bad input to POST /v1/transfers, field by field (CONTRACT §2): each is a 400 problem+json
// whose `errors` name the field, and nothing is written for the account.
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { configuredOrThrow } from "../../src/config/isolate.ts";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { expectValidationProblem, type Footprint, footprint, validTransfer } from "./helpers.ts";

const pool = filePool(2);

const maxCents = configuredOrThrow(env).rules.per_transfer_cents;

let accountId: string;
let before: Footprint;

// A funded account per test, so a request that slipped through would hold money, and so no
// account comes near the rate limit.
beforeEach(async () => {
  accountId = await fundedAccount(100_000_000);
  before = await footprint(pool, accountId);
});

async function postRaw(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID(), ...headers }),
    body,
  });
}

async function expectRejected(response: Response, field: string): Promise<void> {
  const problem = await expectValidationProblem(response, field);
  expect(problem.errors?.every((e) => e.message.length > 0)).toBe(true);
  expect(await footprint(pool, accountId)).toEqual(before);
}

const withField = (field: string, value: unknown) => JSON.stringify({ ...validTransfer, [field]: value });
const withoutField = (field: string) => JSON.stringify(Object.fromEntries(Object.entries(validTransfer).filter(([k]) => k !== field)));

describe("amount_cents", () => {
  it.each([
    ["zero", 0],
    ["negative", -100],
    ["a float", 25.5],
    ["a string", "2500"],
    ["null", null],
    ["a boolean", true],
    ["above MAX_TRANSFER_CENTS", maxCents + 1],
    ["beyond safe integers", 2 ** 53],
  ])("rejects %s", async (_label, value) => {
    await expectRejected(await postRaw(withField("amount_cents", value)), "amount_cents");
  });

  it("rejects a missing amount", async () => {
    await expectRejected(await postRaw(withoutField("amount_cents")), "amount_cents");
  });
});

describe("pix_key for each pix_key_type", () => {
  it.each([
    ["cpf", "123"],
    ["cpf", "100.000.001-09"],
    ["cpf", "111.111.111-11"],
    ["cpf", "1000000010a"],
    ["cpf", "100 000 001 08"],
    ["cnpj", "11.222.333/0001-80"],
    ["cnpj", "00000000000000"],
    ["cnpj", "1122233300018"],
    ["email", "not-an-email"],
    ["email", "maria@"],
    ["email", `${"a".repeat(70)}@ex.com.br`],
    ["email", "maria @example.com"],
    ["phone", "11987654321"],
    ["phone", "+55 11 98765-4321"],
    ["phone", "+5501987654321"],
    ["phone", "+14155552671"],
    ["evp", "not-a-uuid"],
    ["evp", "123e4567e89b12d3a456426614174000"],
    ["evp", "123e4567-e89b-12d3-a456-42661417400g"],
    ["cpf", ""],
    ["email", "x".repeat(101)],
  ])("rejects the %s key %j", async (type, key) => {
    await expectRejected(await postRaw(JSON.stringify({ ...validTransfer, pix_key_type: type, pix_key: key })), "pix_key");
  });

  it.each([
    ["an unknown type", "iban"],
    ["a type in capitals", "CPF"],
    ["null", null],
  ])("rejects pix_key_type as %s", async (_label, value) => {
    await expectRejected(await postRaw(withField("pix_key_type", value)), "pix_key_type");
  });

  it("rejects a pix_key that is not a string", async () => {
    await expectRejected(await postRaw(withField("pix_key", 10000000108)), "pix_key");
  });
});

describe("description and the body as a whole", () => {
  it("rejects a description of 141 characters", async () => {
    await expectRejected(await postRaw(withField("description", "d".repeat(141))), "description");
  });

  it("rejects a description that is not a string", async () => {
    await expectRejected(await postRaw(withField("description", 42)), "description");
  });

  it("rejects an unknown field", async () => {
    const response = await postRaw(withField("currency", "BRL"));
    const problem = await expectValidationProblem(response, "");
    expect(problem.errors?.[0]?.message).toMatch(/currency/);
    expect(await footprint(pool, accountId)).toEqual(before);
  });

  it.each([
    ["malformed JSON", '{"amount_cents": 2500,'],
    ["an empty body", ""],
    ["whitespace", "  \n "],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
    ["a JSON string", '"transfer"'],
    ["a form body", "amount_cents=2500&pix_key=10000000108&pix_key_type=cpf"],
    ["bytes that are not UTF-8 JSON", "\u0000\u0001\u0002"],
  ])("rejects %s", async (_label, body) => {
    await expectRejected(await postRaw(body), "");
  });

  it("rejects a form post, whatever its content type says", async () => {
    const response = await postRaw("amount_cents=2500", { "content-type": "application/x-www-form-urlencoded" });
    await expectRejected(response, "");
  });

  it("still rejects bad fields when the content type is not JSON", async () => {
    await expectRejected(await postRaw(withField("amount_cents", 0), { "content-type": "text/plain" }), "amount_cents");
  });

  it("names every invalid field at once", async () => {
    const response = await postRaw(JSON.stringify({ amount_cents: 0, pix_key: 1, pix_key_type: "x", description: 2 }));
    const problem = await expectValidationProblem(response, "amount_cents");
    expect(problem.errors?.map((e) => e.field).sort()).toEqual(["amount_cents", "description", "pix_key", "pix_key_type"]);
    expect(await footprint(pool, accountId)).toEqual(before);
  });
});
