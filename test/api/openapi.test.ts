// GET /openapi.json and GET /docs: a well-formed OpenAPI 3.1 document covering every path of
// the contract, whose documented answers are what the API really answers, rendered as HTML.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { configuredOrThrow } from "../../src/config/isolate.ts";
import { openApiDocument } from "../../src/http/openapi/document.ts";
import type { JsonSchema, OpenApiDocument, Operation } from "../../src/http/openapi/types.ts";
import { call, clientHeaders, opsHeaders } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { emptyAccount } from "./helpers.ts";

/** CONTRACT §2, §3, §5 and the sandbox (§4): every operation the document must describe. */
const contractOperations = [
  "post /v1/transfers",
  "get /v1/transfers",
  "get /v1/transfers/{id}",
  "get /v1/transfers/{id}/events",
  "post /v1/transfers/{id}/cancel",
  "get /v1/balance",
  "get /v1/limits",
  "get /v1/pix-keys/{key}",
  "get /healthz",
  "get /openapi.json",
  "get /docs",
  "post /webhooks/provider",
  "put /ops/accounts/{id}",
  "post /ops/accounts/{id}/credits",
  "put /ops/accounts/{id}/limits",
  "get /ops/transfers",
  "get /ops/transfers/{id}",
  "post /ops/transfers/{id}/resolve",
  "get /ops/reconciliation",
  "post /ops/reconciliation/provider",
  "get /ops/reconciliation/provider/latest",
  "post /ops/sweep",
  "get /ops/events",
  "get /ops/overview",
];
const sandboxOperations = [
  "put /sandbox/provider/pix/{idempotency_key}",
  "get /sandbox/provider/pix/{idempotency_key}",
  "get /sandbox/provider/pix",
  "get /sandbox/provider/payments",
  "get /sandbox/provider/payments/{idempotency_key}",
  "post /sandbox/provider/outage",
  "get /sandbox/provider/dict/{key}",
];

async function fetchDocument(): Promise<OpenApiDocument> {
  const response = await call("/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  return response.json<OpenApiDocument>();
}

type Listed = { key: string; method: string; path: string; operation: Operation };

function operationsOf(doc: OpenApiDocument): Listed[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ key: `${method} ${path}`, method, path, operation: operation as Operation })),
  );
}

/** Every `$ref` anywhere under `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === "$ref" && typeof inner === "string" ? [inner] : refsIn(inner)));
}

describe("GET /openapi.json", () => {
  it("is OpenAPI 3.1, needs no auth, and describes every path of the contract and the sandbox", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.info.version).toEqual(expect.any(String));
    const keys = operationsOf(doc).map((o) => o.key);
    for (const expected of [...contractOperations, ...sandboxOperations]) expect(keys).toContain(expected);
  });

  it("names the server that served it, its licence, and the edge's 404 and 405 on every operation", async () => {
    const doc = await fetchDocument();
    expect(doc.servers).toEqual([{ url: "http://pix.test", description: expect.any(String) }]);
    expect(doc.info.license.name).toEqual(expect.any(String));
    for (const { key, operation } of operationsOf(doc)) {
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(["404", "405"]));
    }
    const createTransfer = operationsOf(doc).find((o) => o.key === "post /v1/transfers");
    expect(Object.keys(createTransfer?.operation.responses ?? {})).toContain("429");
  });

  it("is well formed: unique operation ids, declared path parameters, resolvable refs, known schemes and tags", async () => {
    const doc = await fetchDocument();
    const operations = operationsOf(doc);
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tagNames = new Set(doc.tags.map((t) => t.name));
    for (const { key, path, operation } of operations) {
      expect(path, key).toMatch(/^\//);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), key).toEqual([...templated].sort());
      for (const p of declared) expect(p.required, key).toBe(true);
      for (const status of Object.keys(operation.responses)) expect(status, key).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/);
      for (const response of Object.values(operation.responses)) expect(response.description, key).not.toBe("");
      for (const requirement of operation.security) {
        for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes, key).toHaveProperty(scheme);
      }
      for (const tag of operation.tags) expect(tagNames.has(tag), key).toBe(true);
      expect(operation.summary, key).not.toBe("");
    }
    for (const ref of refsIn(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty(ref.slice("#/components/schemas/".length));
    }
    // Components are plain 2020-12 schemas: no `$schema`/`$id` left over from the conversion.
    expect(JSON.stringify(doc.components.schemas)).not.toMatch(/"\$(schema|id)"/);
  });

  it("describes the events POSTed to EVENTS_URL as webhooks: each type, the OutboundEvent body, the signature headers, 2xx acknowledges", async () => {
    const doc = await fetchDocument();
    expect(Object.keys(doc.webhooks).sort()).toEqual(["contestation.updated", "transfer.returned", "transfer.updated"]);
    for (const [type, item] of Object.entries(doc.webhooks)) {
      const post = item.post;
      expect(post?.requestBody?.content["application/json"]?.schema, type).toEqual({ $ref: "#/components/schemas/OutboundEvent" });
      expect(
        post?.parameters?.map((p) => [p.name, p.in, p.required]),
        type,
      ).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      expect(Object.keys(post?.responses ?? {}), type).toEqual(["2XX", "default"]);
      expect(post?.security, type).toEqual([{ eventsSignature: [] }]);
    }
    expect(doc.components.securitySchemes.eventsSignature).toMatchObject({ type: "apiKey", in: "header", name: "webhook-signature" });
    expect(doc.components.schemas.OutboundEvent).toMatchObject({
      properties: { type: { enum: ["transfer.updated", "transfer.returned", "contestation.updated"] } },
    });
  });

  it("names the auth of each part: client JWT for /v1, Access or operator token for /ops, signatures for webhooks, none for the rest", async () => {
    const doc = await fetchDocument();
    expect(doc.components.securitySchemes.clientJwt).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(doc.components.securitySchemes.opsToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.accessJwt).toMatchObject({ type: "apiKey", in: "header", name: "Cf-Access-Jwt-Assertion" });
    expect(doc.components.securitySchemes.webhookSignature).toMatchObject({ type: "apiKey", in: "header", name: "webhook-signature" });
    for (const { key, path, operation } of operationsOf(doc)) {
      const schemes = operation.security.flatMap((r) => Object.keys(r));
      if (path.startsWith("/v1/")) expect(schemes, key).toEqual(["clientJwt"]);
      else if (path.startsWith("/ops/")) expect(schemes, key).toEqual(["accessJwt", "opsToken"]);
      else if (path.startsWith("/webhooks/efi")) expect(schemes, key).toEqual(["efiWebhookHmac"]);
      else if (path.startsWith("/webhooks/")) expect(schemes, key).toEqual(["webhookSignature"]);
      else if (!path.startsWith("/sandbox/")) expect(operation.security, key).toEqual([]);
    }
  });

  it("documents every error of our own API as problem+json, and the contract's status codes", async () => {
    const doc = await fetchDocument();
    for (const { key, path, operation } of operationsOf(doc)) {
      // The sandbox PSP's own API answers `{ code }`, like a real PSP.
      if (
        path.startsWith("/sandbox/provider/pix") ||
        path.startsWith("/sandbox/provider/dict/") ||
        path === "/sandbox/provider/outage" ||
        path.startsWith("/sandbox/provider/contestations/") ||
        path === "/sandbox/provider/charges/{txid}" ||
        path === "/sandbox/provider/br-codes/resolve"
      )
        continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        expect(response.content, `${key} ${status}`).toEqual({
          "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } },
        });
      }
    }
    const statuses = (key: string) => Object.keys(operationsOf(doc).find((o) => o.key === key)?.operation.responses ?? {});
    expect(statuses("post /v1/transfers")).toEqual(expect.arrayContaining(["202", "400", "401", "403", "413", "422", "429"]));
    expect(statuses("get /v1/transfers/{id}")).toEqual(expect.arrayContaining(["200", "401", "403", "404"]));
    expect(statuses("get /v1/transfers")).toEqual(expect.arrayContaining(["200", "400", "401", "403"]));
    expect(statuses("post /v1/transfers/{id}/contestations")).toEqual(
      expect.arrayContaining(["201", "400", "401", "403", "404", "409", "422"]),
    );
    expect(statuses("post /v1/contestations/{id}/cancel")).toEqual(expect.arrayContaining(["200", "404", "409"]));
    expect(statuses("post /ops/contestations/{id}/decision")).toEqual(expect.arrayContaining(["200", "403", "404", "409", "415"]));
    expect(statuses("put /ops/accounts/{id}")).toEqual(expect.arrayContaining(["200", "201", "400", "401"]));
    expect(statuses("post /ops/accounts/{id}/credits")).toEqual(expect.arrayContaining(["200", "404", "422", "403", "415"]));
    // Every operator write lists the cross-site and content-type refusals; reads do not.
    expect(statuses("post /ops/sweep")).toEqual(expect.arrayContaining(["403", "415"]));
    expect(statuses("get /ops/transfers")).not.toContain("415");
    expect(statuses("post /ops/transfers/{id}/resolve")).toEqual(expect.arrayContaining(["200", "404", "409"]));
    expect(statuses("post /webhooks/provider")).toEqual(expect.arrayContaining(["202", "401"]));
    expect(statuses("get /healthz")).toEqual(expect.arrayContaining(["200", "503"]));
    expect(statuses("get /v1/pix-keys/{key}")).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404", "429", "501", "503"]));
  });

  it("describes request bodies with the routes' own schemas and this deployment's MAX_TRANSFER_CENTS", async () => {
    const doc = await fetchDocument();
    const create = doc.components.schemas.CreateTransferRequest as JsonSchema & { properties: Record<string, JsonSchema> };
    expect(create.additionalProperties).toBe(false);
    // The payee is named by the key fields or by br_code, exactly one of them.
    expect(create.oneOf).toEqual([{ required: ["amount_cents", "pix_key", "pix_key_type"] }, { required: ["br_code"] }]);
    expect(create.properties.br_code).toMatchObject({ type: "string" });
    expect(create.properties.amount_cents).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: configuredOrThrow(env).rules.per_transfer_cents,
    });
    expect(create.properties.pix_key_type).toMatchObject({ enum: ["cpf", "cnpj", "email", "phone", "evp"] });
    expect(create.properties.description).toMatchObject({ anyOf: [{ type: "string", maxLength: 140 }, { type: "null" }] });
    const post = operationsOf(doc).find((o) => o.key === "post /v1/transfers")?.operation;
    expect(post?.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header", required: true }));
    const list = operationsOf(doc).find((o) => o.key === "get /v1/transfers")?.operation;
    expect(list?.parameters).toContainEqual(
      expect.objectContaining({ name: "limit", in: "query", schema: expect.objectContaining({ minimum: 1, maximum: 100, default: 20 }) }),
    );
  });

  it("tells clients the choices the contract leaves open", async () => {
    const { info } = await fetchDocument();
    for (const choice of [
      /Unknown fields .* rejected/,
      /normalised request/,
      /rate limited per account/,
      /Idempotent-Replayed/,
      /oldest first/,
      /408\/409\/425\/429/,
    ]) {
      expect(info.description).toMatch(choice);
    }
  });

  it("marks the sandbox paths sandbox-only, and leaves them out when the sandbox is off", async () => {
    const doc = await fetchDocument();
    for (const { key, path, operation } of operationsOf(doc)) {
      expect(operation["x-sandbox-only"] === true, key).toBe(path.startsWith("/sandbox/"));
    }
    const production = await openApiDocument(app, { sandboxEnabled: false, maxTransferCents: 5000 }, "https://pix.example");
    expect(Object.keys(production.paths).filter((p) => p.startsWith("/sandbox"))).toEqual([]);
    expect(production.tags.map((t) => t.name)).not.toContain("sandbox");
    const sandboxPaths = Object.keys(doc.paths).filter((p) => p.startsWith("/sandbox/"));
    expect(Object.keys(production.paths)).toEqual(Object.keys(doc.paths).filter((p) => !sandboxPaths.includes(p)));
  });

  it("documents what each route really answers to a bare request", async () => {
    // Each operation called with its auth and no body or parameters: the answer must be one it documents.
    const doc = await fetchDocument();
    const client = await clientHeaders(await emptyAccount("doc"));
    for (const { key, method, path, operation } of operationsOf(doc)) {
      const url = path
        .replace("{id}", path.startsWith("/ops/accounts") ? uniqueAccountId("doc") : crypto.randomUUID())
        .replace("{idempotency_key}", crypto.randomUUID());
      const headers = path.startsWith("/v1/") ? client : path.startsWith("/ops/") ? opsHeaders() : {};
      const response = await call(url, { method: method.toUpperCase(), headers });
      const documented = Object.keys(operation.responses);
      const status = String(response.status);
      expect(documented.includes(status) || documented.includes(`${status[0]}XX`), `${key} answered ${status}`).toBe(true);
    }
  });
});

describe("GET /docs", () => {
  it("is one readable HTML page, needing no auth, rendered from the document", async () => {
    const response = await call("/docs", { headers: { authorization: "Bearer garbage" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<title>Pix cash-out API");
    const doc = await fetchDocument();
    for (const { path, operation } of operationsOf(doc)) {
      expect(html).toContain(`id="${operation.operationId}"`);
      expect(html).toContain(path);
    }
    for (const id of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${id}"`);
  });

  it("loads nothing from elsewhere: no scripts, no external links, a CSP that forbids them", async () => {
    const response = await call("/docs");
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
  });

  it("escapes what it renders: descriptions cannot inject markup", async () => {
    const html = await (await call("/docs")).text();
    // The description of the Idempotency-Key parameter shows its pattern, with `<`-free escaping of quotes and ampersands.
    expect(html).not.toContain("<slug>");
    expect(html).toContain("&lt;slug&gt;");
  });
});
