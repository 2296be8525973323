// Behind Cloudflare Access the console opens with the person's assertion, no token login; the
// person's email is who acts. A bad assertion opens nothing, and failed logins are throttled.
import { describe, expect, it } from "vitest";
import { accessAssertion } from "../support/access.ts";
import { call } from "../support/api.ts";
import { csrfOf, postForm } from "./support.ts";

const asPerson = async (path: string, email = "bia@fintech.example") =>
  call(path, { headers: { "cf-access-jwt-assertion": await accessAssertion(email) }, redirect: "manual" });

describe("the console behind Cloudflare Access", () => {
  it("opens the console with an assertion and no cookie, and shows who is signed in", async () => {
    const response = await asPerson("/console");
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(html).toContain("bia@fintech.example");
    expect(csrfOf(html)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("sends a person at the login page straight to the console", async () => {
    const response = await asPerson("/console/login");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/console");
  });

  it("refuses a forged assertion with 401 and opens nothing", async () => {
    const assertion = await accessAssertion("bia@fintech.example");
    const [header, payload] = assertion.split(".");
    const response = await call("/console", { headers: { "cf-access-jwt-assertion": `${header}.${payload}.AAAA` }, redirect: "manual" });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("Review queue");
  });

  it("throttles failed token logins per source IP with 429 and Retry-After", async () => {
    const ip = "192.0.2.44";
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await postForm("/console/login", { token: "not-the-token" }, null, { "cf-connecting-ip": ip });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get("retry-after")).toBe("60");
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const elsewhere = await postForm("/console/login", { token: "not-the-token" }, null, { "cf-connecting-ip": "192.0.2.45" });
    expect(elsewhere.status).toBe(401);
  });
});
