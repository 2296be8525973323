// Trusted recipients and night schedules on business time (CONTRACT §2 "Trusted recipients", the
// `scheduled_for` bullet; §4 "Test clock"): a recipient's wait is counted in business time, the
// night it exempts from is business time's night, and a schedule is judged by the night rules
// when asked for inside business time's night window. Each test moves the clock to the time of
// day it needs (the default night window is 20:00 to 06:00, São Paulo), whatever the wall clock.
import { describe, expect, it } from "vitest";
import { clientLimitsSchema } from "../../src/contract/schemas.ts";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { call, clientHeaders, createTransfer, fundedAccount, type TransferJson } from "../support/api.ts";
import { advanceClock, advanceToSaoPaulo, businessNow } from "../support/clock.ts";
import { saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";
import { listTrusted, putTrusted, trustedDelayMs } from "../support/trusted.ts";

/** Above the default night cap (NIGHT_TRANSFER_LIMIT_CENTS, R$ 1,000.00), within every daytime limit. */
const aboveNightCapCents = 150_000;
const babysitter = { pix_key: "100.000.001-08", pix_key_type: "cpf" };
const stranger = { pix_key: "stranger@example.com", pix_key_type: "email" };

async function sent(accountId: string, amountCents: number, to: { pix_key: string; pix_key_type: string }): Promise<TransferJson> {
  const response = await createTransfer(accountId, { amount_cents: amountCents, ...to });
  expect(response.status).toBe(202);
  return response.json<TransferJson>();
}

async function scheduled(accountId: string, amountCents: number, to = babysitter): Promise<TransferJson> {
  const day = saoPauloDayFromToday(2, await businessNow());
  const response = await scheduleTransfer(accountId, { ...scheduledBody(day, amountCents), ...to });
  expect(response.status).toBe(202);
  return response.json<TransferJson>();
}

async function babysitterState(accountId: string): Promise<string | undefined> {
  const response = await listTrusted(accountId);
  expect(response.status).toBe(200);
  const { data } = await response.json<{ data: { pix_key: string; state: string }[] }>();
  return data.find((r) => r.pix_key === "10000000108")?.state;
}

async function usedTonightCents(accountId: string): Promise<number> {
  const response = await call("/v1/limits", { headers: await clientHeaders(accountId) });
  expect(response.status).toBe(200);
  return clientLimitsSchema.parse(await response.json()).used_tonight_cents;
}

const refusedAt = (rule: string) => ({ state: "compensated", failure_reason: "limit_exceeded", failure_code: rule });

describe("a trusted recipient on business time", () => {
  it("waits TRUSTED_RECIPIENT_DELAY_MS of business time, then exempts a transfer from the night caps", async () => {
    const accountId = await fundedAccount(1_000_000);
    const askedFromMs = await advanceToSaoPaulo("22:00");
    const put = await putTrusted(accountId, babysitter.pix_key, babysitter.pix_key_type);
    const askedToMs = await businessNow();
    expect(put.status).toBe(202);
    const asked = await put.json<{ state: string; effective_at: string }>();
    expect(asked.state).toBe("pending");
    const effectiveAtMs = Date.parse(asked.effective_at);
    expect(effectiveAtMs).toBeGreaterThanOrEqual(askedFromMs + trustedDelayMs - 1_000);
    expect(effectiveAtMs).toBeLessThanOrEqual(askedToMs + trustedDelayMs);
    expect(await sent(accountId, aboveNightCapCents, babysitter)).toMatchObject(refusedAt("nighttime"));

    // A minute before its effective_at, in the next evening's night window: still pending.
    await advanceClock(effectiveAtMs - 60_000 - (await businessNow()));
    expect(saoPauloClock(await businessNow()).minuteOfDay).toBeGreaterThanOrEqual(20 * 60);
    expect(await babysitterState(accountId)).toBe("pending");
    expect(await sent(accountId, aboveNightCapCents, babysitter)).toMatchObject(refusedAt("nighttime"));

    await advanceClock(2 * 60_000);
    expect(await babysitterState(accountId)).toBe("active");
    const trusted = await sent(accountId, aboveNightCapCents, babysitter);
    expect(trusted.failure_reason).toBeNull();
    expect(trusted.state).not.toBe("compensated");
    expect(await usedTonightCents(accountId)).toBe(0);
    // The night still holds for anyone else.
    expect(await sent(accountId, aboveNightCapCents, stranger)).toMatchObject(refusedAt("nighttime"));
  });
});

describe("a schedule asked for on business time", () => {
  it("is judged by the night rules inside business time's night window, and by none in its daytime", async () => {
    const accountId = await fundedAccount(1_000_000);
    // Whatever the wall clock says, one of these two requests is judged against it.
    await advanceToSaoPaulo("12:00");
    expect(await scheduled(accountId, aboveNightCapCents)).toMatchObject({ state: "scheduled", failure_reason: null });

    await advanceToSaoPaulo("22:00");
    expect(await scheduled(accountId, aboveNightCapCents)).toMatchObject(refusedAt("nighttime"));
    // R$ 600.00 fits tonight's R$ 1,000.00 total and counts toward it; another does not fit.
    expect(await scheduled(accountId, 60_000)).toMatchObject({ state: "scheduled" });
    expect(await usedTonightCents(accountId)).toBe(60_000);
    expect(await scheduled(accountId, 60_000)).toMatchObject(refusedAt("night_total"));
  });

  it("to a recipient active in business time is not judged at night", async () => {
    const accountId = await fundedAccount(1_000_000);
    expect((await putTrusted(accountId, babysitter.pix_key, babysitter.pix_key_type)).status).toBe(202);
    await advanceClock(trustedDelayMs);
    await advanceToSaoPaulo("22:00");
    expect(await scheduled(accountId, aboveNightCapCents)).toMatchObject({ state: "scheduled", failure_reason: null });
    expect(await usedTonightCents(accountId)).toBe(0);
    expect(await scheduled(accountId, aboveNightCapCents, stranger)).toMatchObject(refusedAt("nighttime"));
  });
});
