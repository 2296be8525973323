// The operator's work: find a transfer, read its story, work the review queue (resolve with a
// confirmation step), check the account and reconciliation, on a laptop and on a phone.
import { asAccessPerson, assert, type Check, type CheckContext, heading, screenshot, text } from "./harness.ts";

function cents(amountCents: number): string {
  const reais = Math.floor(amountCents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${reais},${String(amountCents % 100).padStart(2, "0")}`;
}

async function search(ctx: CheckContext, query: string): Promise<void> {
  await ctx.page.goto(`${ctx.baseUrl}/console`);
  await ctx.page.getByLabel("Transfer id, end_to_end_id or account id").fill(query);
  await ctx.page.getByRole("button", { name: "Search" }).click();
}

/** The figure (Balance, Held, Available) as the account page shows it. */
async function figure(ctx: CheckContext, label: string): Promise<string> {
  return (
    (await ctx.page
      .locator(".figure", { has: ctx.page.getByText(label, { exact: true }) })
      .locator(".value")
      .textContent()) ?? ""
  );
}

async function expectFigures(ctx: CheckContext): Promise<void> {
  const balance = await ctx.api.balance(ctx.seeded.accountId);
  for (const [label, amountCents] of [
    ["Balance", balance.balance_cents],
    ["Held", balance.held_cents],
    ["Available", balance.available_cents],
  ] as const) {
    const shown = await figure(ctx, label);
    assert(shown === cents(amountCents), `${label} shows ${shown}, the API says ${cents(amountCents)}`);
  }
}

/** From the queue to the confirmation page; `shot` names a screenshot of the filled-in form. */
async function resolve(ctx: CheckContext, id: string, choice: string, note: string, shot?: string): Promise<void> {
  await ctx.page.goto(`${ctx.baseUrl}/console/queue`);
  await ctx.page.getByRole("link", { name: id }).click();
  await heading(ctx.page, `Transfer ${id}`);
  await ctx.page.getByLabel(choice).check();
  await ctx.page.getByLabel(/^Note/).fill(note);
  if (shot !== undefined) await screenshot(ctx, shot);
  await ctx.page.getByRole("button", { name: "Review and confirm…" }).click();
  await heading(ctx.page, "Confirm the resolution");
}

export const pageChecks: Check[] = [
  {
    name: "search by transfer id opens its timeline, provider evidence and ledger entries",
    async run(ctx) {
      const { id } = ctx.seeded.completed;
      await search(ctx, id);
      await heading(ctx.page, `Transfer ${id}`);
      for (const state of ["started", "funds_reserved", "submitted", "completed"]) {
        assert((await ctx.page.locator(`td .state-${state}`).count()) > 0, `the timeline has no ${state} row`);
      }
      await text(ctx.page, "Each send and status check, with the provider's answer as received");
      await text(ctx.page, "Ledger entries of the settlement, then of each return (they sum to zero)");
      await screenshot(ctx, "05-transfer-completed");
    },
  },
  {
    name: "search by end_to_end_id opens the same transfer",
    async run(ctx) {
      const { id, end_to_end_id } = ctx.seeded.completed;
      assert(end_to_end_id, "the completed transfer has no end_to_end_id");
      await search(ctx, end_to_end_id);
      await heading(ctx.page, `Transfer ${id}`);
    },
  },
  {
    name: "search by account id opens the account with balance, held and available",
    async run(ctx) {
      await search(ctx, ctx.seeded.accountId);
      await heading(ctx.page, `Account ${ctx.seeded.accountId}`);
      await expectFigures(ctx);
      await screenshot(ctx, "06-account-before");
    },
  },
  {
    name: "the review queue lists needs_review oldest first with amounts, ages and the total",
    async run(ctx) {
      const { reviewA, reviewB } = ctx.seeded;
      await ctx.page.goto(`${ctx.baseUrl}/console/queue`);
      await heading(ctx.page, "Review queue");
      const rows = await ctx.page.locator("tbody tr").allTextContents();
      assert(rows.length === 2, `the queue shows ${rows.length} rows, expected 2`);
      assert(rows[0]?.includes(reviewA.id) && rows[1]?.includes(reviewB.id), "the queue is not oldest first");
      assert(rows[0]?.includes(cents(reviewA.amount_cents)), "the frozen amount is missing");
      await text(ctx.page, cents(reviewA.amount_cents + reviewB.amount_cents));
      await screenshot(ctx, "07-queue");
    },
  },
  {
    name: "resolving not_sent asks for confirmation, then shows the result and restores the balance",
    async run(ctx) {
      const { id } = ctx.seeded.reviewA;
      const note = "PSP statement shows no payment for this id";
      await resolve(ctx, id, "Not sent: the provider did not pay it (release the hold to the account)", note, "08-transfer-needs-review");
      await screenshot(ctx, "09-confirm");
      await ctx.page.getByRole("button", { name: "Confirm: mark as not sent" }).click();
      await text(ctx.page, "Resolved: the transfer is now compensated.");
      await text(ctx.page, `operator: ${note}`);
      await screenshot(ctx, "10-transfer-resolved");
      const transfer = await ctx.api.transfer(id);
      assert(transfer.state === "compensated", `the transfer is ${transfer.state}, expected compensated`);
      await ctx.page.getByRole("link", { name: ctx.seeded.accountId }).click();
      await heading(ctx.page, `Account ${ctx.seeded.accountId}`);
      await expectFigures(ctx);
      const held = (await ctx.api.balance(ctx.seeded.accountId)).held_cents;
      assert(held === ctx.seeded.reviewB.amount_cents, `held is ${held}: the released hold did not come back`);
      await screenshot(ctx, "11-account-after");
    },
  },
  {
    // Settling on an operator's word is a person's call: a token login may not (CONTRACT §5).
    name: "resolving sent, as a person behind Access, settles the other transfer and empties the queue",
    async run(ctx) {
      const { id } = ctx.seeded.reviewB;
      await asAccessPerson(ctx, "bia.operadora@fintech.example", async () => {
        await resolve(ctx, id, "Sent: the provider paid it (settle the hold)", "Bank statement shows E2E settled");
        await ctx.page.getByRole("button", { name: "Confirm: mark as sent" }).click();
        await text(ctx.page, "Resolved: the transfer is now completed.");
        await ctx.page.goto(`${ctx.baseUrl}/console/queue`);
        await text(ctx.page, "No transfer waits for review.");
      });
    },
  },
  {
    name: "reconciliation shows the latest result and runs again on the button",
    async run(ctx) {
      await ctx.page.goto(`${ctx.baseUrl}/console/reconciliation`);
      await text(ctx.page, "Reconciled.");
      await ctx.page.getByRole("button", { name: "Run reconciliation now" }).click();
      await text(ctx.page, /account\(s\) checked, no divergence/);
      await screenshot(ctx, "12-reconciliation");
    },
  },
  {
    name: "pages fit a phone screen without sideways scrolling",
    async run(ctx) {
      await ctx.page.setViewportSize({ width: 390, height: 844 });
      try {
        for (const [name, urlPath] of [
          ["13-phone-transfer", `/console/transfers/${ctx.seeded.reviewA.id}`],
          ["14-phone-account", `/console/accounts/${ctx.seeded.accountId}`],
        ] as const) {
          await ctx.page.goto(`${ctx.baseUrl}${urlPath}`);
          // A string: this script is type-checked against Node's globals, not the DOM's.
          const overflowPx = await ctx.page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
          assert(overflowPx <= 0, `${urlPath} is ${overflowPx} px wider than a phone screen`);
          await screenshot(ctx, name);
        }
        // What a phone shows of the timeline, at its real size.
        await ctx.page.goto(`${ctx.baseUrl}/console/transfers/${ctx.seeded.reviewA.id}#timeline-heading`);
        await screenshot(ctx, "15-phone-timeline-screen", false);
      } finally {
        await ctx.page.setViewportSize({ width: 1280, height: 900 });
      }
    },
  },
];
