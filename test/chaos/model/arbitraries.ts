// What fast-check may generate: every command of the model with its parameters. Amounts stay
// under the night cap and the new-key review threshold so the clock of the run does not matter,
// and accounts are funded low enough that insufficient funds happen.
import fc from "fast-check";
import { sandboxBehaviours } from "../../support/faults.ts";
import type { WebhookVariant } from "../support/webhooks.ts";
import { type CrashKind, commands, type DbFaultKind } from "./commands.ts";

export const accountsPerRun = 3;
export const amountCentsMax = 60_000;

const webhookVariants: WebhookVariant[] = ["true", "lying", "replayed", "stale_replay", "forged", "reserialised"];
const crashKinds: CrashKind[] = ["abort_all", "evict_one"];
const dbFaultKinds: DbFaultKind[] = ["reset", "drop_reply", "cut_before", "latency", "blackhole", "kill"];

const accountIndex = fc.nat({ max: accountsPerRun - 1 });
const transferIndex = fc.nat({ max: 1_000 });

const createTransfer = fc
  .tuple(accountIndex, fc.integer({ min: 1, max: amountCentsMax }), fc.constantFrom(...sandboxBehaviours))
  .map(([a, amount, behaviour]) => commands.create(a, amount, behaviour));
const recur = fc
  .tuple(
    accountIndex,
    fc.integer({ min: 1, max: amountCentsMax }),
    fc.constantFrom(...sandboxBehaviours),
    fc.constantFrom<"weekly" | "monthly">("weekly", "monthly"),
  )
  .map(([a, amount, behaviour, frequency]) => commands.recur(a, amount, behaviour, frequency));
const dbFault = fc.constantFrom(...dbFaultKinds).map((kind) => commands.dbFault(kind));
const wait = fc.integer({ min: 50, max: 800 }).map((ms) => commands.wait(ms));

/** fc.commands picks uniformly among these: creates, faults and waits are listed more than once to weigh them. */
export const modelCommands = [
  createTransfer,
  createTransfer,
  createTransfer,
  recur,
  fc.tuple(transferIndex, fc.boolean()).map(([t, same]) => commands.repeat(t, same)),
  fc.tuple(accountIndex, fc.integer({ min: 1, max: 50_000 }), fc.boolean()).map(([a, amount, reuse]) => commands.credit(a, amount, reuse)),
  fc.tuple(transferIndex, fc.constantFrom(...webhookVariants)).map(([t, variant]) => commands.webhook(t, variant)),
  fc.tuple(transferIndex, fc.boolean()).map(([t, twice]) => commands.alarm(t, twice)),
  fc.constant(commands.sweep()),
  fc.tuple(fc.constantFrom(...crashKinds), transferIndex).map(([kind, t]) => commands.crash(kind, t)),
  fc.integer({ min: 200, max: 1_000 }).map((ms) => commands.providerOutage(ms)),
  dbFault,
  dbFault,
  fc.tuple(transferIndex, fc.constantFrom<"sent" | "not_sent">("sent", "not_sent")).map(([t, outcome]) => commands.resolve(t, outcome)),
  wait,
  wait,
];

/** Each run's starting balances: some accounts start empty, so early transfers are refused. */
export const initialFundsCents = fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: accountsPerRun, maxLength: accountsPerRun });
