// Search (the home carries the same box), the transfer page, and resolving a needs_review transfer (form, confirmation, result).
// Resolution goes through the transfer's saga object, exactly as POST /ops/transfers/:id/resolve.

import { type Context, Hono } from "hono";
import { z } from "zod";
import { mayResolveAs } from "../../auth/operators.ts";
import { opsEventListSchema } from "../../contract/ops-schemas.ts";
import { eventsForOps } from "../../events/ops-reads.ts";
import { log } from "../../lib/log.ts";
import type { OperatorOutcome } from "../../saga/transition.ts";
import type { ResolveResult } from "../../saga-runtime/rpc-results.ts";
import { callObject, ObjectFault } from "../../web/object-call.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { withConsoleDb } from "../data/db.ts";
import { reviewQueue } from "../data/queue.ts";
import { search } from "../data/search.ts";
import { readTransferStory, type TransferStory } from "../data/story.ts";
import { operatorNote } from "../forms.ts";
import { requireCsrf } from "../guard.tsx";
import { page } from "../render.tsx";
import { RefusalPage } from "../views/refusal.tsx";
import { ConfirmPage, choicesFor, noteLengthMax } from "../views/resolve.tsx";
import { SearchPage } from "../views/search.tsx";
import { TransferPage } from "../views/transfer.tsx";

const resolveForm = z.object({
  outcome: z.enum(["sent", "not_sent", "approve"], { error: "Choose one of the outcomes." }),
  note: operatorNote(noteLengthMax, "say what you checked"),
  confirm: z.literal("yes").optional(),
});

const wrongOutcome = (story: TransferStory) =>
  story.held_before_sending
    ? "Nothing was sent for this transfer yet: approve it (send it) or reject it (not sent). Nothing was changed."
    : "This transfer was already sent to the provider: mark it sent or not sent, as the provider's records show. Nothing was changed.";

/** A token login is the shared OPS_TOKEN, a machine: what only a person may decide, it may not (CONTRACT §5). */
const personOnly = (outcome: OperatorOutcome) =>
  `Marking a transfer ${outcome === "sent" ? "sent" : "approved"} needs a person: sign in through Cloudflare Access. ` +
  "A token login may mark it not sent. Nothing was changed.";

export const transferPages = new Hono<ConsoleEnv>();

transferPages.get("/search", async (c) => {
  const query = c.req.query("q") ?? "";
  if (query.trim() === "") {
    const queue = await withConsoleDb(c.env, (db) => reviewQueue(db, 0));
    return page(c, <SearchPage csrfToken={c.var.csrfToken} query="" hits={null} queue={queue} />);
  }
  const { hits, queue } = await withConsoleDb(c.env, async (db) => ({ hits: await search(db, query), queue: await reviewQueue(db, 0) }));
  const only = hits.length === 1 ? hits[0] : undefined;
  if (only) return c.redirect(`/console/${only.kind === "account" ? "accounts" : "transfers"}/${encodeURIComponent(only.id)}`, 303);
  return page(c, <SearchPage csrfToken={c.var.csrfToken} query={query} hits={hits} queue={queue} />);
});

transferPages.get("/transfers/:id", async (c) => {
  const id = c.req.param("id");
  const { story, events } = await withConsoleDb(c.env, async (db) => {
    const read = await readTransferStory(db, id);
    return {
      story: read,
      events: read === null ? [] : opsEventListSchema.parse({ data: await eventsForOps(db, { transferId: id, limit: 100 }) }).data,
    };
  });
  if (!story)
    return page(c, <RefusalPage title="Transfer not found" message="No transfer has this id." csrfToken={c.var.csrfToken} />, 404);
  const notice = c.req.query("resolved") === "1" ? `Resolved: the transfer is now ${story.state}.` : undefined;
  return page(c, <TransferPage story={story} events={events} csrfToken={c.var.csrfToken} notice={notice} />);
});

transferPages.post("/transfers/:id/resolve", requireCsrf(), async (c) => {
  const id = c.req.param("id");
  const csrfToken = c.var.csrfToken;
  const story = await withConsoleDb(c.env, (db) => readTransferStory(db, id));
  if (!story) return page(c, <RefusalPage title="Transfer not found" message="No transfer has this id." csrfToken={csrfToken} />, 404);
  const parsed = resolveForm.safeParse(await c.req.parseBody());
  if (!parsed.success) {
    const error = parsed.error.issues.map((issue) => issue.message).join(" ");
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={error} />, 400);
  }
  const { outcome, note, confirm } = parsed.data;
  const notInReview = (state: string) => `Only a transfer in needs_review can be resolved; this one is ${state}. Nothing was changed.`;
  if (story.state !== "needs_review")
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={notInReview(story.state)} />, 409);
  if (!choicesFor(story).some((choice) => choice.outcome === outcome)) {
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={wrongOutcome(story)} />, 409);
  }
  if (!mayResolveAs(c.var.session, outcome)) {
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={personOnly(outcome)} />, 403);
  }
  if (confirm !== "yes") return page(c, <ConfirmPage story={story} outcome={outcome} note={note} csrfToken={csrfToken} />);

  const result = await resolveThroughSaga(c, id, outcome, note);
  if (result.outcome === "not_found") {
    return page(c, <RefusalPage title="Transfer not found" message="No transfer has this id." csrfToken={csrfToken} />, 404);
  }
  if (result.outcome === "unavailable") {
    const error = "The resolution could not be recorded just now. Nothing changed; try again.";
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={error} />, 503);
  }
  if (result.outcome === "wrong_outcome")
    return page(c, <TransferPage story={story} csrfToken={csrfToken} error={wrongOutcome(story)} />, 409);
  if (result.outcome === "not_in_review") {
    // Someone else resolved it between the confirmation and now: show what it is.
    const current = (await withConsoleDb(c.env, (db) => readTransferStory(db, id))) ?? story;
    return page(c, <TransferPage story={current} csrfToken={csrfToken} error={notInReview(result.state)} />, 409);
  }
  log(c, "console_transfer_resolved", { transfer_id: id, outcome, state: result.state });
  // Post/redirect/get: a reload shows the result instead of posting the resolution again.
  return c.redirect(`/console/transfers/${id}?resolved=1`, 303);
});

/** An interrupted object call is the same for an operator as a database that did not answer. */
async function resolveThroughSaga(c: Context<ConsoleEnv>, id: string, outcome: OperatorOutcome, note: string): Promise<ResolveResult> {
  try {
    return await callObject<ResolveResult>(c, "resolve", () =>
      c.env.TRANSFER_SAGA.getByName(id).resolve(outcome, note, c.var.session.actor),
    );
  } catch (error) {
    if (error instanceof ObjectFault) return { outcome: "unavailable" };
    throw error;
  }
}
