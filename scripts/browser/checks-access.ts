// Getting in and staying safe: wrong tokens refused, the session cookie's flags, forged and
// cross-origin posts refused without changing anything, and logout.
import { assert, type Check, type CheckContext, heading, screenshot, sessionCookie, text } from "./harness.ts";

async function submitToken(ctx: CheckContext, token: string): Promise<void> {
  await ctx.page.goto(`${ctx.baseUrl}/console/login`);
  await ctx.page.getByLabel("Operator token").fill(token);
  await ctx.page.getByRole("button", { name: "Log in" }).click();
}

async function expectStillInReview(ctx: CheckContext, id: string): Promise<void> {
  const transfer = await ctx.api.transfer(id);
  assert(transfer.state === "needs_review", `transfer ${id} is ${transfer.state} after a refused post, expected needs_review`);
}

export const accessChecks: Check[] = [
  {
    name: "a wrong operator token is refused with a clear message",
    async run(ctx) {
      await ctx.page.goto(`${ctx.baseUrl}/console/login`);
      await heading(ctx.page, "Operator login");
      await screenshot(ctx, "01-login");
      await submitToken(ctx, "not-the-operator-token");
      await text(ctx.page, "That operator token is not valid. Nothing was opened.");
      await screenshot(ctx, "02-login-refused");
      assert((await sessionCookie(ctx)) === undefined, "a session cookie was set for a wrong token");
    },
  },
  {
    name: "a valid client JWT is refused as the operator token",
    async run(ctx) {
      await submitToken(ctx, ctx.api.clientToken(ctx.seeded.accountId));
      await text(ctx.page, "That operator token is not valid.");
      assert((await sessionCookie(ctx)) === undefined, "a session cookie was set for a client JWT");
    },
  },
  {
    name: "logging in sets an HttpOnly, Secure, SameSite=Strict session cookie",
    async run(ctx) {
      await submitToken(ctx, ctx.api.secrets.opsToken);
      await heading(ctx.page, "Overview");
      await screenshot(ctx, "03-home");
      const cookie = await sessionCookie(ctx);
      assert(cookie, "no session cookie after logging in");
      assert(cookie.httpOnly && cookie.secure && cookie.sameSite === "Strict", `cookie flags: ${JSON.stringify(cookie)}`);
      assert(cookie.path === "/" && cookie.expires > Date.now() / 1000, `cookie path/expiry: ${JSON.stringify(cookie)}`);
    },
  },
  {
    name: "a forged form post with the session cookie but no CSRF token is refused",
    async run(ctx) {
      const cookie = await sessionCookie(ctx);
      assert(cookie, "not logged in");
      const id = ctx.seeded.reviewB.id;
      const response = await fetch(`${ctx.baseUrl}/console/transfers/${id}/resolve`, {
        method: "POST",
        headers: { cookie: `${cookie.name}=${cookie.value}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ outcome: "sent", note: "forged", confirm: "yes" }).toString(),
        redirect: "manual",
      });
      assert(response.status === 403, `forged post answered ${response.status}, expected 403`);
      assert((await response.text()).includes("CSRF"), "the refusal does not say why");
      await expectStillInReview(ctx, id);
    },
  },
  {
    name: "a form on another origin posting to the console is refused",
    async run(ctx) {
      const id = ctx.seeded.reviewB.id;
      ctx.receiver.setAttack(ctx.baseUrl, id);
      await ctx.page.goto(`${ctx.receiver.origin}/attack`);
      await ctx.page.getByRole("button", { name: "Claim prize" }).click();
      await heading(ctx.page, "Request refused");
      await screenshot(ctx, "04-cross-origin-refused");
      await expectStillInReview(ctx, id);
    },
  },
];

export const logoutCheck: Check = {
  name: "logging out ends the session",
  async run(ctx) {
    await ctx.page.goto(`${ctx.baseUrl}/console`);
    await ctx.page.getByRole("button", { name: "Log out" }).click();
    await heading(ctx.page, "Operator login");
    assert((await sessionCookie(ctx)) === undefined, "the session cookie survived logout");
    await ctx.page.goto(`${ctx.baseUrl}/console/queue`);
    await heading(ctx.page, "Operator login");
  },
};
