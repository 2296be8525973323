// The console's home: the overview's figures, each linking to the list behind it, three SVG
// charts with labelled axes and screen-reader text, the window selector, and no script at all.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProviderHealth } from "../../src/alerts/provider-health-object.ts";
import { providerConfiguration } from "../../src/alerts/provider-misconfigured.ts";
import { createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { getPage, login } from "./support.ts";

let cookie: string;
let rejected: TransferJson;
let completed: TransferJson;

beforeAll(async () => {
  cookie = await login();
  const accountId = await fundedAccount(100_000);
  const ids: string[] = [];
  for (const body of [
    { amount_cents: 1_100, pix_key: "reject@sandbox.test", pix_key_type: "email" },
    { amount_cents: 1_200, pix_key: "100.000.001-08", pix_key_type: "cpf" },
  ]) {
    const created = await createTransfer(accountId, body);
    expect(created.status).toBe(202);
    ids.push((await created.json<TransferJson>()).id);
  }
  rejected = await waitForFinalState(accountId, ids[0] ?? "");
  completed = await waitForFinalState(accountId, ids[1] ?? "");
  expect([rejected.state, rejected.failure_reason, completed.state]).toEqual(["compensated", "provider_rejected", "completed"]);
});

async function pageOf(path: string, status = 200): Promise<{ html: string; response: Response }> {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("text/html");
  return { html: await response.text(), response };
}

/** A figure's number by its label, as the home shows it. */
function figure(html: string, label: string): number {
  const match = new RegExp(`<span class="label">${label}</span><span class="value">(\\d+)</span>`).exec(html);
  if (!match?.[1]) throw new Error(`no figure labelled ${label}`);
  return Number(match[1]);
}

describe("console home: the overview", () => {
  it("shows the window's figures first, each a link to its list, and the queues as of now", async () => {
    const { html, response } = await pageOf("/console");
    expect(html).toContain("<h1>Overview</h1>");
    const sent = figure(html, "Sent");
    const parts = ["Completed", "Compensated", "In review", "In flight", "Canceled"].map((label) => figure(html, label));
    expect(parts.reduce((a, b) => a + b, 0)).toBe(sent);
    expect(figure(html, "Completed")).toBeGreaterThanOrEqual(1);
    expect(figure(html, "Compensated")).toBeGreaterThanOrEqual(1);
    for (const href of [
      "/console/transfers?minutes=60",
      "/console/transfers?minutes=60&amp;state=completed",
      "/console/transfers?minutes=60&amp;state=compensated",
      "/console/transfers?minutes=60&amp;state=needs_review",
      "/console/transfers?minutes=60&amp;state=in_flight",
      "/console/transfers?minutes=60&amp;state=compensated&amp;reason=provider_rejected",
      "/console/transfers?minutes=60&amp;state=compensated&amp;reason=insufficient_funds",
      "/console/queue",
      "/console/events",
      "/console/contestations",
    ]) {
      expect(html).toContain(`href="${href}"`);
    }
    for (const label of ["Review queue", "Undelivered events", "Open contestations"]) figure(html, label);
    // Figures come before the charts, the search box after them.
    expect(html.indexOf('class="figures"')).toBeLessThan(html.indexOf("<svg"));
    expect(html.indexOf("<svg")).toBeLessThan(html.indexOf('action="/console/search"'));
    // No script anywhere, and the headers forbid one.
    expect(html).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).not.toContain("script-src");
  });

  it("draws three SVG charts, each an image with a title, a description and labelled axes in UTC", async () => {
    const { html } = await pageOf("/console");
    const charts = html.match(/<svg class="chart" viewBox="0 0 \d+ \d+" role="img" aria-labelledby="[^"]+-title [^"]+-desc">/g) ?? [];
    expect(charts).toHaveLength(3);
    for (const id of ["chart-transfers", "chart-completion", "chart-provider"]) {
      expect(html).toMatch(new RegExp(`<title id="${id}-title">[^<]+</title><desc id="${id}-desc">[^<]+</desc>`));
    }
    expect(html).toContain(">Created at (UTC)</text>");
    expect(html).toContain(">Called at (UTC)</text>");
    expect(html).toContain(">Created to completed</text>");
    expect(html).toContain('class="series-completed"');
    expect(html).toMatch(/<title>\d{2}:\d{2} UTC: \d+ completed<\/title>/);
    expect(html).toContain("Transfers created per minute, by current state");
  });

  it("takes its window from the selector's plain links: 15 min and 1 h by the minute, 24 h by 30 minutes", async () => {
    const home = (await pageOf("/console")).html;
    for (const minutes of [15, 60, 1440]) expect(home).toContain(`href="/console?minutes=${minutes}"`);
    expect(home).toContain('<a href="/console?minutes=60" aria-current="page">Last 1 h</a>');
    const quarter = (await pageOf("/console?minutes=15")).html;
    expect(quarter).toContain('<a href="/console?minutes=15" aria-current="page">Last 15 min</a>');
    expect(quarter).toContain("Transfers in the last 15 min");
    expect(quarter).toContain('href="/console/transfers?minutes=15&amp;state=completed"');
    const day = (await pageOf("/console?minutes=1440")).html;
    expect(day).toContain("Transfers created per 30 minutes, by current state");
    expect(figure(day, "Sent")).toBeGreaterThanOrEqual(figure(quarter, "Sent"));
  });

  it("refuses a window that is not a whole number of minutes from 1 to 1440, with a page, not a 5xx", async () => {
    for (const query of ["minutes=0", "minutes=1441", "minutes=1.5", "minutes=abc", "minutes=60&other=1"]) {
      const { html } = await pageOf(`/console?${query}`, 400);
      expect(html).toContain("That window or filter is not valid");
    }
  });
});

describe("console home: the PSP's health", () => {
  const health = () => env.PROVIDER_HEALTH.getByName(providerConfiguration(env));

  it("says first when the PSP is degraded, and since when, as the degraded-PSP alert's state has it", async () => {
    const sinceMs = Date.now() - 7 * 60_000;
    await runInDurableObject(health(), (_: ProviderHealth, state) =>
      state.storage.put("state", { degradedSinceMs: sinceMs, degradedAlertedAtMs: sinceMs, spellAlerted: true }),
    );
    try {
      const { html } = await pageOf("/console");
      expect(html).toMatch(/<p class="warning" role="status">The PSP is degraded since [^<]*\(for 7 min\)/);
    } finally {
      await runInDurableObject(health(), (_: ProviderHealth, state) => state.storage.deleteAll());
    }
    const { html } = await pageOf("/console");
    expect(html).toContain("The PSP is answering");
    expect(html).not.toContain("The PSP is degraded");
  });
});

describe("the lists behind the figures", () => {
  it("lists the window's transfers in the figure's state and reason, newest first", async () => {
    const rejections = (await pageOf("/console/transfers?minutes=15&state=compensated&reason=provider_rejected")).html;
    expect(rejections).toContain("<h1>Transfers created in the last 15 min now compensated (provider_rejected)</h1>");
    expect(rejections).toContain(rejected.id);
    expect(rejections).not.toContain(completed.id);
    const done = (await pageOf("/console/transfers?minutes=15&state=completed")).html;
    expect(done).toContain(completed.id);
    expect(done).not.toContain(rejected.id);
    const all = (await pageOf("/console/transfers?minutes=15")).html;
    expect(all.indexOf(completed.id)).toBeGreaterThan(-1);
    expect(all.indexOf(completed.id)).toBeLessThan(all.indexOf(rejected.id));
  });

  it("refuses an unknown state or reason with a page", async () => {
    for (const query of ["state=lost", "reason=bad_luck", "minutes=0", "state="]) {
      expect((await pageOf(`/console/transfers?${query}`, 400)).html).toContain("That window or filter is not valid");
    }
  });

  it("lists the undelivered events with their transfers", async () => {
    const { html } = await pageOf("/console/events");
    expect(html).toContain("<h1>Undelivered events</h1>");
    expect(html).toMatch(/<span class="label">Not delivered yet<\/span><span class="value">\d+<\/span>/);
  });
});
