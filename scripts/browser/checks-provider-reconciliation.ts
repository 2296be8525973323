// Money after the saga, as an operator meets it: run provider reconciliation over the seeded
// window, read the paid-after-release case with its evidence, decide it, and see the returned
// transfer's money back on its page.
import path from "node:path";
import { assert, type Check, heading, screenshot, text } from "./harness.ts";

export const providerReconciliationChecks: Check[] = [
  {
    name: "provider reconciliation runs a window and shows the paid-after-release case with its evidence",
    async run(ctx) {
      const { released, seededFromMs } = ctx.seeded;
      await ctx.page.goto(`${ctx.baseUrl}/console`);
      await ctx.page.getByRole("link", { name: "Provider reconciliation" }).click();
      await heading(ctx.page, "Provider reconciliation");
      await ctx.page.getByLabel("From").fill(new Date(seededFromMs).toISOString());
      await ctx.page.getByLabel("To").fill(new Date(Date.now() + 60_000).toISOString());
      await ctx.page.getByRole("button", { name: "Run provider reconciliation" }).click();
      await text(ctx.page, /^Run \d+ finished/);
      await text(ctx.page, "paid_after_release");
      // Our record beside the provider's: the fate differs, marked in words, not by colour alone.
      const divergence = ctx.page.getByRole("article", { name: `Divergence paid_after_release ${released.id}` });
      await divergence.waitFor({ timeout: 10_000 });
      const marked = await divergence.locator("tr.differs").allTextContents();
      assert(
        marked.length === 1 && marked[0]?.includes("Outcome") && marked[0]?.includes("≠ differs"),
        `marked rows: ${marked.join(" | ")}`,
      );
      assert(marked[0]?.includes("compensated") && marked[0]?.includes("confirmed"), "the marked row does not show both fates");
      await divergence.screenshot({ path: path.join(ctx.screenshotsDir, "19b-divergence-marked.png") });
      const card = ctx.page.getByRole("article", { name: `Case ${released.id}` });
      await card.waitFor({ timeout: 10_000 });
      const evidence = (await card.locator("pre").textContent()) ?? "";
      assert(evidence.includes("confirmed") && evidence.includes("compensated"), "the case shows no release or confirmation");
      await screenshot(ctx, "19-provider-reconciliation");
    },
  },
  {
    name: "an operator decides the case with a note, and it leaves the open list",
    async run(ctx) {
      const { released } = ctx.seeded;
      const card = ctx.page.getByRole("article", { name: `Case ${released.id}` });
      await card.getByLabel("Written off: the house absorbs the loss").check();
      await card.getByLabel(/^Note/).fill("Recipient unreachable; the house absorbs it.");
      await card.getByRole("button", { name: "Record decision" }).click();
      await text(ctx.page, `Decision recorded for transfer ${released.id}.`);
      const left = await ctx.page.getByRole("article", { name: `Case ${released.id}` }).count();
      assert(left === 0, "the decided case is still listed as open");
      await screenshot(ctx, "20-provider-case-decided");
    },
  },
  {
    name: "the returned transfer shows its return, credited to the account",
    async run(ctx) {
      const { returned } = ctx.seeded;
      await ctx.page.goto(`${ctx.baseUrl}/console/transfers/${returned.id}`);
      await heading(ctx.page, `Transfer ${returned.id}`);
      await text(ctx.page, "R$ 22,22 of R$ 22,22 came back, credited to the account");
      await text(ctx.page, "returned_by_recipient");
      await screenshot(ctx, "21-transfer-returned");
    },
  },
];
