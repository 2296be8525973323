// providerFor: which adapter the configuration chooses, and that a bad configuration fails loudly.
import { env } from "cloudflare:workers";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ProviderConfigError } from "../../src/provider/config.ts";
import { providerFor } from "../../src/provider/select.ts";
import { drainSandboxWebhooks, orderFor } from "./support.ts";

afterAll(drainSandboxWebhooks);

describe("providerFor", () => {
  it("reaches the sandbox through the Worker's loopback binding with PROVIDER=sandbox, even with PROVIDER_URL set", async () => {
    const provider = providerFor({ ...env, PROVIDER: "sandbox", PROVIDER_URL: "https://psp.example/v2/", PROVIDER_TIMEOUT_MS: "5000" });
    const order = orderFor("kai@example.com");
    expect(await provider.send(order)).toMatchObject({ kind: "accepted", evidence: { httpStatus: 201 } });
    const view = await env.SANDBOX.getByName("sandbox").payment(order.idempotencyKey);
    expect(view).toMatchObject({ send_calls: 1, made: true });
  });

  it("uses PROVIDER_URL with PROVIDER=http, the sandbox on or not: the global fetch gets the PUT with the bearer token", async () => {
    // The one stand-in in these tests: no PSP is reachable from here, and the point is which
    // transport is chosen and what it is asked, not what a PSP answers (the sandbox tests do that).
    const seen: Request[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      seen.push(input instanceof Request ? input : new Request(input));
      return Response.json({ status: "processing", end_to_end_id: null }, { status: 201 });
    });
    try {
      const provider = providerFor({
        ...env,
        PROVIDER: "http",
        PROVIDER_URL: "https://psp.example/v2/",
        PROVIDER_TOKEN: "live-token",
        SANDBOX_PROVIDER: "on",
      });
      const order = orderFor("lia@example.com");
      expect(await provider.send(order)).toMatchObject({ kind: "accepted", status: "processing" });
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      const [request] = seen;
      expect(request?.method).toBe("PUT");
      expect(request?.url).toBe(`https://psp.example/v2/pix/${order.idempotencyKey}`);
      expect(request?.headers.get("authorization")).toBe("Bearer live-token");
      expect(await request?.json()).toEqual({
        amount_cents: 2500,
        pix_key: "lia@example.com",
        pix_key_type: "email",
        description: "aluguel",
      });
      expect(await env.SANDBOX.getByName("sandbox").payment(order.idempotencyKey)).toBeNull();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it("never falls back to the sandbox: PROVIDER unset, or sandbox with the sandbox off, has no adapter", () => {
    expect(() => providerFor({ ...env, PROVIDER: undefined })).toThrow(ProviderConfigError);
    expect(() => providerFor({ ...env, PROVIDER: "" })).toThrow(/PROVIDER is unset/);
    expect(() => providerFor({ ...env, PROVIDER: "sandbox", SANDBOX_PROVIDER: "off" })).toThrow(ProviderConfigError);
    expect(() => providerFor({ ...env, PROVIDER: "http", PROVIDER_URL: undefined })).toThrow(/PROVIDER_URL is unset/);
  });

  it("refuses a PROVIDER_URL that is not http(s) and a PROVIDER_TIMEOUT_MS that is not a bounded integer", () => {
    expect(() => providerFor({ ...env, PROVIDER: "http", PROVIDER_URL: "ftp://psp.example" })).toThrow(ProviderConfigError);
    expect(() => providerFor({ ...env, PROVIDER_TIMEOUT_MS: "10s" })).toThrow(/PROVIDER_TIMEOUT_MS/);
    expect(() => providerFor({ ...env, PROVIDER_TIMEOUT_MS: "0" })).toThrow(/PROVIDER_TIMEOUT_MS/);
  });

  it("PROVIDER=efi needs every EFI_* variable and an http(s) base URL", () => {
    const efi = {
      ...env,
      PROVIDER: "efi",
      EFI_BASE_URL: "https://pix.api.efipay.com.br",
      EFI_CLIENT_ID: "id",
      EFI_CLIENT_SECRET: "secret",
      EFI_PAYER_KEY: "pagador@fintech.test",
    };
    expect(providerFor(efi)).toBeDefined();
    for (const missing of ["EFI_BASE_URL", "EFI_CLIENT_ID", "EFI_CLIENT_SECRET", "EFI_PAYER_KEY"] as const) {
      expect(() => providerFor({ ...efi, [missing]: undefined })).toThrow(ProviderConfigError);
    }
    expect(() => providerFor({ ...efi, EFI_BASE_URL: "ftp://efi.example" })).toThrow(ProviderConfigError);
  });

  it("PROVIDER=efi sends through the EFI_CERT mTLS binding when it is bound", async () => {
    const seen: string[] = [];
    const certificate = {
      fetch: async (input: RequestInfo | URL) => {
        const request = input instanceof Request ? input : new Request(input);
        seen.push(new URL(request.url).pathname);
        return Response.json({ error: "invalid_client" }, { status: 401 });
      },
    } as unknown as Fetcher;
    const provider = providerFor({
      ...env,
      PROVIDER: "efi",
      EFI_BASE_URL: "https://pix.api.efipay.com.br",
      EFI_CLIENT_ID: "id-cert",
      EFI_CLIENT_SECRET: "secret",
      EFI_PAYER_KEY: "pagador@fintech.test",
      EFI_CERT: certificate,
    });
    expect(await provider.send(orderFor("mia@example.com"))).toMatchObject({ kind: "unknown", alert: "credentials_refused" });
    expect(seen).toEqual(["/oauth/token"]);
  });
});
