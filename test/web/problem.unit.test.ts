import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it, vi } from "vitest";
import { type RequestIdVariables, requestId } from "../../src/http/request-id.ts";
import { installProblemHandlers, type ProblemBody, ProblemError, problem, problemSlugs, problemTypeUri } from "../../src/web/problem.ts";

function appWithProblems() {
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId());
  installProblemHandlers(app);
  return app;
}

async function problemOf(response: Response): Promise<ProblemBody> {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()) as ProblemBody;
}

describe("problem()", () => {
  it("answers RFC 9457 members with the full type URI and the request id", async () => {
    const app = appWithProblems();
    app.get("/thing", (c) => problem(c, 409, { type: "conflict", detail: "Already resolved.", headers: { "Retry-After": "5" } }));
    const response = await app.request("/thing", { headers: { "X-Request-Id": "req-123" } });
    expect(response.status).toBe(409);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(response.headers.get("X-Request-Id")).toBe("req-123");
    expect(await problemOf(response)).toEqual({
      type: "https://pix-cashout.dev/problems/conflict",
      title: "Conflict",
      status: 409,
      detail: "Already resolved.",
      request_id: "req-123",
    });
  });

  it("includes field errors and a custom title when given, and no request id without the middleware", async () => {
    const app = new Hono();
    app.get("/", (c) =>
      problem(c, 400, {
        type: "validation-failed",
        title: "Bad transfer",
        detail: "See errors.",
        errors: [{ field: "amount_cents", message: "too big" }],
      }),
    );
    const body = await problemOf(await app.request("/"));
    expect(body).toEqual({
      type: "https://pix-cashout.dev/problems/validation-failed",
      title: "Bad transfer",
      status: 400,
      detail: "See errors.",
      errors: [{ field: "amount_cents", message: "too big" }],
    });
  });

  it("has a URI for every slug the contract and routes use", () => {
    for (const slug of [
      "validation-failed",
      "unauthorized",
      "forbidden",
      "not-found",
      "method-not-allowed",
      "payload-too-large",
    ] as const) {
      expect(problemTypeUri(slug)).toBe(`https://pix-cashout.dev/problems/${slug}`);
    }
    expect(problemSlugs).toEqual(
      expect.arrayContaining([
        "idempotency-key-reused",
        "idempotency-key-in-use",
        "conflict",
        "rate-limited",
        "internal",
        "unavailable",
        "bad-request",
      ]),
    );
  });
});

describe("installProblemHandlers", () => {
  it("answers a thrown ProblemError with its problem and headers", async () => {
    const app = appWithProblems();
    app.post("/transfers", () => {
      throw new ProblemError(422, { type: "idempotency-key-reused", detail: "This key was used with another body." });
    });
    const response = await app.request("/transfers", { method: "POST" });
    expect(response.status).toBe(422);
    const body = await problemOf(response);
    expect(body.type).toBe("https://pix-cashout.dev/problems/idempotency-key-reused");
    expect(body.title).toBe("Idempotency key reused with a different request");
    expect(body.request_id).toBe(response.headers.get("X-Request-Id"));
  });

  it("maps an HTTPException to the problem for its status, keeping its challenge header", async () => {
    const app = appWithProblems();
    app.get("/auth", () => {
      throw new HTTPException(401, {
        message: "Token required",
        res: new Response(null, { status: 401, headers: { "WWW-Authenticate": "Bearer" } }),
      });
    });
    app.get("/teapot", () => {
      throw new HTTPException(418, { message: "Short and stout" });
    });
    const auth = await app.request("/auth");
    expect(auth.status).toBe(401);
    expect(auth.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(await problemOf(auth)).toMatchObject({
      type: "https://pix-cashout.dev/problems/unauthorized",
      status: 401,
      detail: "Token required",
    });
    const teapot = await app.request("/teapot");
    expect(await problemOf(teapot)).toMatchObject({ type: "https://pix-cashout.dev/problems/bad-request", status: 418 });
  });

  it("answers an unexpected error with a 500 that hides it, and logs it with the request id", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const app = appWithProblems();
    app.get("/boom", () => {
      throw new Error("connection string postgres://secret@db");
    });
    const response = await app.request("/boom", { headers: { "X-Request-Id": "req-boom" } });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret");
    expect(JSON.parse(text)).toMatchObject({ type: "https://pix-cashout.dev/problems/internal", status: 500, request_id: "req-boom" });
    expect(logged).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(logged.mock.calls[0]?.[0]));
    expect(line).toMatchObject({
      event: "unhandled_error",
      request_id: "req-boom",
      path: "/boom",
      error_message: "connection string postgres://secret@db",
    });
    logged.mockRestore();
  });

  it("hides the message of a 5xx HTTPException too", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const app = appWithProblems();
    app.get("/down", () => {
      throw new HTTPException(503, { message: "pool exhausted at 10.0.0.7" });
    });
    const response = await app.request("/down");
    expect(response.status).toBe(503);
    const body = await problemOf(response);
    expect(body.type).toBe("https://pix-cashout.dev/problems/unavailable");
    expect(body.detail).not.toContain("10.0.0.7");
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it("answers unknown paths with a 404 problem", async () => {
    const response = await appWithProblems().request("/nowhere");
    expect(response.status).toBe(404);
    expect(await problemOf(response)).toMatchObject({ type: "https://pix-cashout.dev/problems/not-found", status: 404 });
  });
});
