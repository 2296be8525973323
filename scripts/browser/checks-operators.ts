// Operators as people: behind Cloudflare Access (a stand-in issuer here) the console opens with
// the person's assertion and no token login; the person resolves a transfer, and their name is
// on the transfer's story and on the audit page.
import { asAccessPerson, assert, type Check, heading, screenshot, text } from "./harness.ts";

const person = "ana.operadora@fintech.example";

export const operatorChecks: Check[] = [
  {
    name: "behind Access the console opens without a login, and the person's name is on the story and the audit page",
    async run(ctx) {
      const id = await ctx.api.createTransfer(ctx.seeded.accountId, 4_321, "processing@sandbox.test", "email");
      const held = await ctx.api.waitForFinalState(id);
      assert(held.state === "needs_review", `the transfer ended ${held.state}, expected needs_review`);
      await asAccessPerson(ctx, person, async () => {
        await ctx.page.goto(`${ctx.baseUrl}/console/login`);
        await heading(ctx.page, "Overview");
        await text(ctx.page, `Signed in as ${person}`);
        await screenshot(ctx, "16-access-home");
        await ctx.page.goto(`${ctx.baseUrl}/console/transfers/${id}`);
        await ctx.page.getByLabel("Not sent: the provider did not pay it (release the hold to the account)").check();
        await ctx.page.getByLabel(/^Note/).fill("PSP statement has no such payment");
        await ctx.page.getByRole("button", { name: "Review and confirm…" }).click();
        await ctx.page.getByRole("button", { name: "Confirm: mark as not sent" }).click();
        await text(ctx.page, "Resolved: the transfer is now compensated.");
        await text(ctx.page, `operator (${person})`);
        await screenshot(ctx, "17-access-story");
        await ctx.page.getByRole("link", { name: "Audit" }).click();
        await heading(ctx.page, "Audit");
        await ctx.page.getByLabel("Actor").fill(person);
        await ctx.page.getByRole("button", { name: "Filter" }).click();
        await text(ctx.page, "transfer_resolved");
        await text(ctx.page, id);
        await screenshot(ctx, "18-access-audit");
      });
    },
  },
];
