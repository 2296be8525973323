import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { installProblemHandlers, methodNotAllowed, rejectWrongMethods } from "../../src/web/problem.ts";

async function expect405(response: Response, allow: string): Promise<void> {
  expect(response.status).toBe(405);
  expect(response.headers.get("Allow")).toBe(allow);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(await response.json()).toMatchObject({ type: "https://pix-cashout.dev/problems/method-not-allowed", status: 405 });
}

describe("methodNotAllowed(allowed)", () => {
  it("answers 405 with Allow for a known path with another method", async () => {
    const app = new Hono();
    installProblemHandlers(app);
    app.get("/v1/transfers", (c) => c.json({ data: [] }));
    app.post("/v1/transfers", (c) => c.json({}, 202));
    app.all("/v1/transfers", methodNotAllowed(["GET", "POST"]));
    await expect405(await app.request("/v1/transfers", { method: "DELETE" }), "GET, POST, HEAD");
    expect((await app.request("/v1/transfers")).status).toBe(200);
    expect((await app.request("/v1/transfers", { method: "POST" })).status).toBe(202);
    expect((await app.request("/v1/other")).status).toBe(404);
  });
});

describe("rejectWrongMethods(app)", () => {
  function app() {
    const root = new Hono();
    installProblemHandlers(root);
    root.use(rejectWrongMethods(root));
    root.get("/v1/transfers/:id", (c) => (c.req.param("id") === "known" ? c.json({ id: "known" }) : c.json({}, 404)));
    const ops = new Hono();
    ops.put("/accounts/:id", (c) => c.json({ id: c.req.param("id") }, 201));
    root.route("/ops", ops);
    return root;
  }

  it("answers 405 with the methods routed for that path", async () => {
    await expect405(await app().request("/v1/transfers/known", { method: "POST" }), "GET, HEAD");
  });

  it("knows the routes of mounted sub-apps", async () => {
    await expect405(await app().request("/ops/accounts/acct_1", { method: "GET" }), "PUT");
    expect((await app().request("/ops/accounts/acct_1", { method: "PUT" })).status).toBe(201);
  });

  it("leaves a route's own 404 and unknown paths as 404", async () => {
    expect((await app().request("/v1/transfers/unknown")).status).toBe(404);
    const unknown = await app().request("/v1/nothing", { method: "POST" });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });
});
