// The sandbox's directory (CONTRACT §4 `GET /dict/{key}`): a deterministic made-up owner for every
// valid key, 404 for email keys beginning `unknown` and EVPs ending `0000`.
import { describe, expect, it } from "vitest";
import { call } from "../support/api.ts";

const dict = (key: string, type: string) => call(`/sandbox/provider/dict/${encodeURIComponent(key)}?type=${type}`);

describe("the sandbox directory", () => {
  it("answers the same made-up owner for a key every time, the CPF's own for a CPF key", async () => {
    const first = await (await dict("maria@example.com", "email")).json<Record<string, string>>();
    expect(first).toMatchObject({
      name: expect.any(String),
      document: expect.stringMatching(/^\d{11}$/),
      ispb: expect.stringMatching(/^\d{8}$/),
    });
    expect(await (await dict("MARIA@example.com", "email")).json()).toEqual(first);
    expect(await (await dict("100.000.001-08", "cpf")).json()).toMatchObject({ document: "10000000108" });
  });

  it.each([
    ["unknown@example.com", "email"],
    ["unknown.person@example.com", "email"],
    ["123e4567-e89b-12d3-a456-426614170000", "evp"],
  ])("has no owner for %s", async (key, type) => {
    const answer = await dict(key, type);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ code: "not_found" });
  });

  it("refuses an invalid key or type", async () => {
    expect((await dict("12345678900", "cpf")).status).toBe(400);
    expect((await dict("maria@example.com", "pix")).status).toBe(400);
  });
});
