// The home as the on-call operator meets it: is everything all right right now? The figures
// first, each opening the list behind it; SVG charts with labelled axes; the window selector;
// no script at all; on a laptop and on a phone. Then a comparison that marks the differing field.
import type { Page } from "playwright-core";
import { assert, type Check, type CheckContext, heading, screenshot, text } from "./harness.ts";

const laptop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
/** What the runner opens with; each check here puts it back. */
const runnerViewport = { width: 1280, height: 900 };

async function figureValue(page: Page, label: string): Promise<number> {
  const value = await page
    .locator(".figure", { has: page.getByText(label, { exact: true }) })
    .locator(".value")
    .textContent();
  assert(value !== null && /^\d+$/.test(value), `the figure ${label} shows ${String(value)}, not a count`);
  return Number(value);
}

/** No script element and no inline handler anywhere on the page; the CSP would refuse one anyway. */
async function expectNoScript(page: Page): Promise<void> {
  assert((await page.locator("script").count()) === 0, "the page has a <script> element");
  const html = await page.content();
  assert(!/\son[a-z]+=|javascript:/i.test(html), "the page has an inline event handler or a javascript: URL");
}

async function expectCharts(page: Page): Promise<void> {
  const charts = page.locator('svg.chart[role="img"]');
  assert((await charts.count()) === 3, `the home has ${await charts.count()} charts, expected 3`);
  for (const name of [/^Transfers created per/, /^Completion time/, /^Provider calls per/]) {
    await page.getByRole("img", { name }).waitFor({ timeout: 10_000 });
  }
  for (const axis of ["Created at (UTC)", "Called at (UTC)", "Created to completed", "Transfers", "Calls"]) {
    assert((await page.locator("svg.chart text", { hasText: axis }).count()) > 0, `no chart has the axis label "${axis}"`);
  }
  // The completed seeded transfers drew at least one bar, with its count as a tooltip.
  assert((await page.locator("svg.chart rect.series-completed").count()) > 0, "no completed bar is drawn");
}

async function withViewport(ctx: CheckContext, size: { width: number; height: number }, work: () => Promise<void>): Promise<void> {
  await ctx.page.setViewportSize(size);
  try {
    await work();
  } finally {
    await ctx.page.setViewportSize(runnerViewport);
  }
}

export const overviewChecks: Check[] = [
  {
    name: "the home shows the overview's figures and three labelled SVG charts, with no script, on a laptop",
    async run(ctx) {
      await withViewport(ctx, laptop, async () => {
        const response = await ctx.page.goto(`${ctx.baseUrl}/console`);
        await heading(ctx.page, "Overview");
        const csp = response?.headers()["content-security-policy"] ?? "";
        assert(csp.includes("default-src 'none'") && !csp.includes("script-src"), `the CSP allows a script: ${csp}`);
        await expectNoScript(ctx.page);
        // Five seeded transfers at least, two of them completed, one compensated (paid after release).
        assert((await figureValue(ctx.page, "Sent")) >= 5, "Sent counts fewer than the seeded transfers");
        assert((await figureValue(ctx.page, "Completed")) >= 2, "Completed counts fewer than the seeded ones");
        assert((await figureValue(ctx.page, "Compensated")) >= 1, "Compensated counts none");
        for (const label of ["In review", "In flight", "Canceled", "Review queue", "Undelivered events", "Open contestations"]) {
          await figureValue(ctx.page, label);
        }
        await expectCharts(ctx.page);
        await screenshot(ctx, "30-home-laptop");
        await screenshot(ctx, "31-home-laptop-screen", false);
      });
    },
  },
  {
    name: "the window selector's links change the window: 15 min by the minute, 24 h by half hours",
    async run(ctx) {
      await ctx.page.goto(`${ctx.baseUrl}/console`);
      await ctx.page.getByRole("link", { name: "Last 15 min" }).click();
      await heading(ctx.page, "Overview");
      assert(ctx.page.url().endsWith("/console?minutes=15"), `the selector went to ${ctx.page.url()}`);
      await text(ctx.page, "Transfers in the last 15 min");
      const current = await ctx.page.getByRole("link", { name: "Last 15 min" }).getAttribute("aria-current");
      assert(current === "page", "the selected window is not marked as current");
      await ctx.page.getByRole("link", { name: "Last 24 h" }).click();
      await text(ctx.page, "Transfers created per 30 minutes, by current state");
      await expectCharts(ctx.page);
      await screenshot(ctx, "32-home-24h");
    },
  },
  {
    name: "each figure opens the list behind it",
    async run(ctx) {
      await ctx.page.goto(`${ctx.baseUrl}/console`);
      const compensated = await figureValue(ctx.page, "Compensated");
      await ctx.page.getByRole("link", { name: /^Compensated\s*\d+/ }).click();
      await heading(ctx.page, "Transfers created in the last 1 h now compensated");
      const listed = await figureValue(ctx.page, "Transfers");
      assert(listed >= compensated, `the list holds ${listed}, the figure said ${compensated}`);
      await text(ctx.page, ctx.seeded.released.id);
      await ctx.page.goto(`${ctx.baseUrl}/console`);
      await ctx.page.getByRole("link", { name: /^Review queue\s*\d+/ }).click();
      await heading(ctx.page, "Review queue");
      await ctx.page.goto(`${ctx.baseUrl}/console`);
      await ctx.page.getByRole("link", { name: /^Undelivered events\s*\d+/ }).click();
      await heading(ctx.page, "Undelivered events");
    },
  },
  {
    name: "the home fits a phone: figures and charts without sideways scrolling",
    async run(ctx) {
      await withViewport(ctx, phone, async () => {
        await ctx.page.goto(`${ctx.baseUrl}/console`);
        await heading(ctx.page, "Overview");
        // A string: this script is type-checked against Node's globals, not the DOM's.
        const overflowPx = await ctx.page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        assert(overflowPx <= 0, `the home is ${overflowPx} px wider than a phone screen`);
        await expectCharts(ctx.page);
        for (const chart of await ctx.page.locator("svg.chart").all()) {
          const box = await chart.boundingBox();
          assert(box !== null && box.width > 250 && box.x + box.width <= phone.width, `a chart is ${box?.width} px wide at ${box?.x}`);
        }
        await screenshot(ctx, "33-phone-home");
        await ctx.page.locator("#charts-heading").scrollIntoViewIfNeeded();
        await screenshot(ctx, "34-phone-charts-screen", false);
      });
    },
  },
  {
    name: "a transfer's provider evidence sets our record beside the provider's answer, and they agree",
    async run(ctx) {
      const { id } = ctx.seeded.completed;
      await ctx.page.goto(`${ctx.baseUrl}/console/transfers/${id}`);
      await heading(ctx.page, `Transfer ${id}`);
      await text(ctx.page, /Our record against the provider's last definitive answer \(status at [^)]+\): they agree/);
      const compare = ctx.page.locator("table.compare");
      assert((await compare.locator("tr.differs").count()) === 0, "a field is marked as differing on a completed transfer");
      await ctx.page.locator(".comparison summary", { hasText: "That answer as received (JSON)" }).click();
      await text(ctx.page, '"status": "confirmed"');
      await screenshot(ctx, "35-transfer-comparison");
    },
  },
];
