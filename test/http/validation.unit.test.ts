import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsMax, jsonBody, queryParams, validationHook } from "../../src/http/validation.ts";
import { installProblemHandlers, type ProblemBody } from "../../src/web/problem.ts";

const transferSchema = z.object({
  amount_cents: z.number().int().min(1),
  pix_key: z.string().min(1),
  description: z.string().max(140).optional(),
  tags: z.array(z.object({ name: z.string() })).optional(),
});

function app() {
  const app = new Hono();
  installProblemHandlers(app);
  app.post("/transfers", jsonBody(transferSchema), (c) => c.json({ received: c.req.valid("json") }, 202));
  app.post("/many", jsonBody(z.array(z.number())), (c) => c.json(c.req.valid("json")));
  app.get("/transfers", queryParams(z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) })), (c) =>
    c.json({ limit: c.req.valid("query").limit }),
  );
  app.get("/transfers/:id", zValidator("param", z.object({ id: z.uuid() }), validationHook), (c) =>
    c.json({ id: c.req.valid("param").id }),
  );
  return app;
}

async function post(path: string, body: string, contentType: string | null = "application/json"): Promise<Response> {
  const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
  return app().request(path, { method: "POST", body, headers });
}

async function expectValidationProblem(response: Response): Promise<ProblemBody> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as ProblemBody;
  expect(body.type).toBe("https://pix-cashout.dev/problems/validation-failed");
  expect(body.status).toBe(400);
  return body;
}

describe("jsonBody(schema)", () => {
  it("hands the parsed body to the route", async () => {
    const response = await post("/transfers", JSON.stringify({ amount_cents: 2500, pix_key: "a@b.co" }));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ received: { amount_cents: 2500, pix_key: "a@b.co" } });
  });

  it("lists every invalid field with a dotted path", async () => {
    const body = await expectValidationProblem(
      await post("/transfers", JSON.stringify({ amount_cents: 0, description: "x".repeat(141), tags: [{ name: 1 }] })),
    );
    expect(body.errors?.map((e) => e.field).sort()).toEqual(["amount_cents", "description", "pix_key", "tags.0.name"]);
    for (const error of body.errors ?? []) expect(error.message).toEqual(expect.any(String));
  });

  it("names the whole input as field '' when its shape is wrong", async () => {
    const body = await expectValidationProblem(await post("/transfers", "[1, 2]"));
    expect(body.errors).toEqual([{ field: "", message: expect.any(String) }]);
  });

  it.each([
    ["truncated JSON", '{"amount_cents": 25', "application/json"],
    ["not JSON at all", "amount=25", "application/json"],
    ["malformed JSON sent as text/plain", "{oops", "text/plain"],
    ["an empty body", "", "application/json"],
    ["whitespace only", "   ", "application/json"],
  ])("answers 400, not 500, for %s", async (_label, body, contentType) => {
    const problem = await expectValidationProblem(await post("/transfers", body, contentType));
    expect(problem.errors).toEqual([{ field: "", message: problem.detail }]);
  });

  it("parses a JSON body whatever its Content-Type says", async () => {
    const body = JSON.stringify({ amount_cents: 1, pix_key: "k" });
    expect((await post("/transfers", body, null)).status).toBe(202);
    expect((await post("/transfers", body, "text/plain;charset=UTF-8")).status).toBe(202);
  });

  it(`caps the error list at ${fieldErrorsMax}`, async () => {
    const body = await expectValidationProblem(await post("/many", JSON.stringify(Array.from({ length: 50 }, () => "x"))));
    expect(body.errors).toHaveLength(fieldErrorsMax);
    expect(body.errors?.[0]?.field).toBe("0");
  });
});

describe("queryParams(schema) and validationHook", () => {
  it("hands the coerced query to the route", async () => {
    expect(await (await app().request("/transfers?limit=7")).json()).toEqual({ limit: 7 });
    expect(await (await app().request("/transfers")).json()).toEqual({ limit: 20 });
  });

  it("answers 400 with the offending parameter", async () => {
    const body = await expectValidationProblem(await app().request("/transfers?limit=1000"));
    expect(body.errors).toEqual([{ field: "limit", message: expect.any(String) }]);
  });

  it("turns zValidator failures on any target into the same problem", async () => {
    const body = await expectValidationProblem(await app().request("/transfers/not-a-uuid"));
    expect(body.errors).toEqual([{ field: "id", message: expect.any(String) }]);
    const ok = await app().request("/transfers/123e4567-e89b-42d3-a456-426614174000");
    expect(ok.status).toBe(200);
  });
});
