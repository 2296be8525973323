// The console's provider reconciliation page: the latest run with its divergences and evidence,
// the open paid-after-release cases, running a window and deciding a case, each form refused
// without its CSRF token or with bad input (nothing written), and a transfer's returns shown.
import { beforeAll, describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { previousSaoPauloDay } from "../../src/reconciliation/window.ts";
import { createTransfer, fundedAccount, getTransfer, opsCall, type TransferJson, waitForFinalState } from "../support/api.ts";
import { type RunStatement, reconciliationRunsMax, statementReadLost } from "../support/reconciliation-runs.ts";
import { csrfFor, getPage, login, postForm } from "./support.ts";

let cookie: string;
let csrf: string;
let accountId: string;
let released: TransferJson;
let returned: TransferJson;
const startedAt = new Date(Date.now() - 60_000).toISOString();

async function transferTo(pixKey: string, amountCents: number): Promise<TransferJson> {
  const created = await createTransfer(accountId, { amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" });
  return waitForFinalState(accountId, (await created.json<TransferJson>()).id);
}

async function latestRunId(): Promise<string | null> {
  const latest = await opsCall("/ops/reconciliation/provider/latest");
  return latest.status === 404 ? null : (await latest.json<{ run_id: string }>()).run_id;
}

async function pageText(path: string): Promise<string> {
  const response = await getPage(path, cookie);
  expect(response.status).toBe(200);
  return response.text();
}

const runWindow = (fields: Record<string, string>) => postForm("/console/provider-reconciliation", { csrf, ...fields }, cookie);

/** Runs the window through the form, again while its statement read is lost to the machine. */
async function runWindowRead(fields: Record<string, string>): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const ran = await runWindow(fields);
    const latest = await opsCall("/ops/reconciliation/provider/latest");
    if (ran.status !== 303 || latest.status !== 200 || attempt === reconciliationRunsMax) return ran;
    if (!statementReadLost((await latest.json<{ statement: RunStatement }>()).statement)) return ran;
  }
}
const decide = (id: string, fields: Record<string, string>) =>
  postForm(`/console/provider-reconciliation/cases/${id}/decision`, { csrf, ...fields }, cookie);

beforeAll(async () => {
  cookie = await login();
  csrf = await csrfFor(cookie);
  accountId = await fundedAccount(100_000);
  [released, returned] = await Promise.all([transferTo("late-confirm@sandbox.test", 4_321), transferTo("returned@sandbox.test", 2_222)]);
  expect(released.state).toBe("compensated");
  expect(returned.state).toBe("completed");
});

describe("console: provider reconciliation", () => {
  it("is in the navigation, and its form offers the previous São Paulo day", async () => {
    const html = await pageText("/console/provider-reconciliation");
    expect(html).toContain("<h1>Provider reconciliation</h1>");
    expect(html).toContain('href="/console/provider-reconciliation"');
    const day = previousSaoPauloDay(Date.now());
    expect(html).toContain(`value="${new Date(day.fromMs).toISOString()}"`);
    expect(html).toContain(`value="${new Date(day.toMs).toISOString()}"`);
  });

  it("refuses a bad window or a missing CSRF token, and runs nothing", async () => {
    const before = await latestRunId();
    const backwards = await runWindow({ from: new Date().toISOString(), to: startedAt });
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain("Nothing ran: `to` must be after `from`.");
    expect((await runWindow({ from: "yesterday", to: new Date().toISOString() })).status).toBe(400);
    const forged = await postForm("/console/provider-reconciliation", { from: startedAt, to: new Date().toISOString() }, cookie);
    expect(forged.status).toBe(403);
    expect(await latestRunId()).toBe(before);
  });

  it("runs a window, shows the paid-after-release with its evidence, and a decision closes the case", async () => {
    const ran = await runWindowRead({ from: startedAt, to: new Date(Date.now() + 1_000).toISOString() });
    expect(ran.status).toBe(303);
    const runId = await latestRunId();
    expect(ran.headers.get("location")).toBe(`/console/provider-reconciliation?ran=${runId}`);

    const html = await pageText(`/console/provider-reconciliation?ran=${runId}`);
    expect(html).toContain(`Run ${runId} finished`);
    expect(html).toContain("<code>paid_after_release</code>");
    expect(html).toContain(`<a href="/console/transfers/${released.id}">${released.id}</a>`);
    expect(html).toContain(`aria-label="Case ${released.id}"`);
    expect(html).toContain("&quot;released_at&quot;");
    // Our record beside the provider's: the fate differs, marked in words; the amount agrees, unmarked.
    expect(html).toMatch(
      /<tr class="differs"><th scope="row">Outcome<strong class="marker"> ≠ differs<\/strong><\/th><td data-label="Ours"><code>compensated \(\w+\)<\/code><\/td><td data-label="The provider&#39;s"><code>confirmed<\/code>/,
    );
    expect(html).toContain(
      '<tr><th scope="row">Amount</th><td data-label="Ours"><code>R$ 43,21</code></td><td data-label="The provider&#39;s"><code>R$ 43,21</code>',
    );
    expect(html).toContain("Our release against the provider&#39;s confirmation: 1 field differs");

    const audit = await (await opsCall("/ops/audit?actor=ops-token&limit=50")).json<{
      data: { action: string; details: { run_id?: number | string } }[];
    }>();
    expect(audit.data.some((a) => a.action === "reconciliation_run" && String(a.details.run_id) === runId)).toBe(true);

    const noNote = await decide(released.id, { decision: "written_off", note: "  " });
    expect(noNote.status).toBe(400);
    expect(await noNote.text()).toContain("A note is required");
    expect((await decide(released.id, { decision: "forgiven", note: "x" })).status).toBe(400);
    expect(
      (await postForm(`/console/provider-reconciliation/cases/${released.id}/decision`, { decision: "recovered", note: "x" }, cookie))
        .status,
    ).toBe(403);
    expect(await pageText("/console/provider-reconciliation")).toContain(`aria-label="Case ${released.id}"`);

    const decided = await decide(released.id, { decision: "written_off", note: "Recipient unreachable; the house absorbs it." });
    expect(decided.status).toBe(303);
    expect(decided.headers.get("location")).toBe(`/console/provider-reconciliation?decided=${released.id}`);
    const after = await pageText(`/console/provider-reconciliation?decided=${released.id}`);
    expect(after).toContain(`Decision recorded for transfer ${released.id}.`);
    expect(after).not.toContain(`aria-label="Case ${released.id}"`);

    const cases = await (await opsCall("/ops/reconciliation/provider/cases?state=all")).json<{
      data: { transfer_id: string; decision: { decision: string; decided_by: string } | null }[];
    }>();
    expect(cases.data.find((c) => c.transfer_id === released.id)?.decision).toMatchObject({
      decision: "written_off",
      decided_by: "ops-token",
    });
    expect((await decide(released.id, { decision: "recovered", note: "again" })).status).toBe(409);
    expect((await decide(crypto.randomUUID(), { decision: "recovered", note: "x" })).status).toBe(404);
  });

  it("a transfer whose money came back shows each return on its page", async () => {
    // The run above applied it if the sandbox had returned it by then; another run picks it up otherwise.
    for (let tries = 0; (await getTransfer(accountId, returned.id)).returned_cents !== 2_222; tries++) {
      if (tries === 20) throw new Error("the return was never credited");
      await sleep(200);
      await runWindow({ from: startedAt, to: new Date(Date.now() + 1_000).toISOString() });
    }
    const html = await pageText(`/console/transfers/${returned.id}`);
    expect(html).toContain("R$ 22,22 of R$ 22,22 came back, credited to the account");
    expect(html).toContain("returned_by_recipient");
  });
});
