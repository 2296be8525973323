// GET /ops/overview's answer (CONTRACT §5): the window's figures and the queues as of now.
import { z } from "zod";
import type { FailureReason } from "../saga/states.ts";
import { cents, timestamp } from "./schemas.ts";

/** A day: the longest window the overview (and the console's home) answers, and the longest whose cost docs/performance.md states. */
export const overviewMinutesMax = 1_440;

const count = z.number().int().nonnegative();
const percentileMs = z.number().int().nonnegative().nullable().describe("Milliseconds; null when nothing was measured");

/** `satisfies`: a failure reason added to the saga fails to compile here until the overview counts it. */
const byFailureReason = {
  insufficient_funds: count,
  limit_exceeded: count,
  provider_rejected: count,
  not_sent: count,
} satisfies Record<FailureReason, typeof count>;

/** GET /ops/overview (CONTRACT §5): the window's figures, and the queues as of now. */
export const opsOverviewSchema = z.strictObject({
  from: timestamp.describe("The start of the window's first minute"),
  to: timestamp.describe("Now: the window's last minute is still running"),
  transfers: z
    .strictObject({
      created: count,
      completed: count,
      compensated: count,
      compensated_by_reason: z
        .strictObject(byFailureReason)
        .describe("The compensated ones by their failure_reason, every reason present; sums to `compensated`"),
      needs_review: count,
      canceled: count,
      in_flight: count.describe("Still advanced by the saga: scheduled, started, funds_reserved, submitted, compensating"),
      by_minute: z
        .array(z.strictObject({ at: timestamp, created: count, completed: count, compensated: count, needs_review: count }))
        .describe("One entry per minute of the window by creation minute, oldest first; sums to the totals"),
    })
    .describe("The transfers created in the window, by their current state"),
  completion_ms: z
    .strictObject({ p50: percentileMs, p95: percentileMs, p99: percentileMs })
    .describe("Created to completed, over the window's transfers that are completed"),
  provider: z
    .strictObject({
      calls: count,
      answered: count,
      unknown: count.describe("Calls that said nothing definitive: timeout, 5xx, unreadable"),
      latency_ms: z.strictObject({ p50: percentileMs, p95: percentileMs }),
      by_minute: z.array(z.strictObject({ at: timestamp, calls: count, unknown: count })).describe("One entry per minute, oldest first"),
      degraded: z
        .boolean()
        .describe(
          "Now, whatever the window: over the last 5 minutes at least 10 calls and more than half unknown, as of the sweeper's last look (each minute); the degraded-PSP alert's state",
        ),
      degraded_since: timestamp.nullable().describe("When the current degraded spell was first seen; null when not degraded"),
    })
    .describe("The provider calls (sends and status checks) recorded in the window, and the provider's health now"),
  review: z
    .strictObject({
      needs_review: count,
      held_cents: cents.nonnegative(),
      oldest_at: timestamp.nullable().describe("When the longest-waiting transfer entered needs_review"),
    })
    .describe("The review queue now, whatever the window"),
  events: z
    .strictObject({ undelivered: count, oldest_undelivered_at: timestamp.nullable() })
    .describe("Outbound events not delivered yet, pending or parked"),
  contestations: z.strictObject({ open: count, nearest_deadline_at: timestamp.nullable() }),
});
