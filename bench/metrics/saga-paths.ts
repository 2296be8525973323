// The saga paths whose database round trips metric 4 counts: each prepares what it needs
// (unmeasured), then runs the real saga runner (advance.ts, the transfer store) to its end.
import { randomUUID } from "node:crypto";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import type { Queryable } from "../../src/db/queryable.ts";
import { createAccount, credit } from "../../src/ledger/ledger.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { advance, type SagaPorts } from "../../src/saga-runtime/advance.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { loadSaga, openTransfer } from "../../src/transfers/store.ts";
import { inProcessProvider, rejectedPixKey } from "../lib/in-process-provider.ts";
import { benchAmountCents, silentPixKey } from "../lib/transfer-shape.ts";

export interface SagaPath {
  name: string;
  roundTripsMax: number;
  /** Where the path must end, or the count is of the wrong path. */
  expectedState: string;
  /** Unmeasured setup: accounts, credits, an earlier saga. */
  prepare(db: Queryable): Promise<SagaRecord | string>;
  /** The measured part; returns the final state. */
  run(db: Queryable, prepared: SagaRecord | string): Promise<string>;
  /** A duplicate trigger must write nothing at all. */
  writesNothing: boolean;
}

/** One provider for the whole run: it must remember what it accepted between two steps. */
const provider = inProcessProvider();

function ports(db: Queryable): SagaPorts {
  // Default timings: the first check is 30 s away, so only the forced run checks the status.
  return { db, provider, timings: readSagaTimings({}), rules: readRuleSettings({}), nowMs: () => Date.now() };
}

async function fundedAccount(db: Queryable, balanceCents: number): Promise<string> {
  const accountId = `bench-rt-${randomUUID().slice(0, 13)}`;
  await createAccount(db, accountId);
  await credit(db, accountId, "seed", balanceCents);
  return accountId;
}

async function open(db: Queryable, accountId: string, pixKey: string): Promise<SagaRecord | null> {
  const opened = await openTransfer(db, {
    id: randomUUID(),
    accountId,
    amountCents: benchAmountCents,
    pixKey,
    pixKeyType: "email",
    description: null,
    idempotencyKey: randomUUID(),
    requestFingerprint: "bench",
    deadlineMs: 3_600_000,
    ...localClockFields(Date.now()),
    // Default limits: a 100-cent transfer passes every rule, so the path is the saga's own.
    rules: readRuleSettings({}),
  });
  if (opened.outcome !== "created") throw new Error(`transfer_open answered ${opened.outcome}`);
  return opened.saga.state === "funds_reserved" ? opened.saga : null;
}

async function openReserved(db: Queryable, accountId: string, pixKey: string): Promise<SagaRecord> {
  const saga = await open(db, accountId, pixKey);
  if (!saga) throw new Error("the hold was refused");
  return saga;
}

/** A saga taken all the way to completed: send, then a forced check that finds it confirmed. */
async function completedSaga(db: Queryable): Promise<SagaRecord> {
  const saga = await openReserved(db, await fundedAccount(db, 10_000), silentPixKey);
  return advance(ports(db), await advance(ports(db), saga, { cause: "alarm" }), { cause: "poke" });
}

function sagaOf(prepared: SagaRecord | string): SagaRecord {
  if (typeof prepared === "string") throw new Error("this path needs a saga prepared");
  return prepared;
}

function accountOf(prepared: SagaRecord | string): string {
  if (typeof prepared !== "string") throw new Error("this path needs an account prepared");
  return prepared;
}

export const sagaPaths: SagaPath[] = [
  {
    name: "happy path",
    expectedState: "completed",
    roundTripsMax: 3,
    writesNothing: false,
    prepare: (db) => fundedAccount(db, 10_000),
    run: async (db, prepared) => {
      const saga = await openReserved(db, accountOf(prepared), silentPixKey);
      // The send runs right after the hold; the check runs when forced (a webhook's poke).
      const submitted = await advance(ports(db), saga, { cause: "alarm" });
      return (await advance(ports(db), submitted, { cause: "poke" })).state;
    },
  },
  {
    name: "rejected by the provider",
    expectedState: "compensated",
    roundTripsMax: 3,
    writesNothing: false,
    prepare: (db) => fundedAccount(db, 10_000),
    run: async (db, prepared) =>
      (await advance(ports(db), await openReserved(db, accountOf(prepared), rejectedPixKey), { cause: "alarm" })).state,
  },
  {
    name: "insufficient funds",
    expectedState: "compensated",
    roundTripsMax: 1,
    writesNothing: false,
    prepare: (db) => fundedAccount(db, benchAmountCents / 2),
    run: async (db, prepared) => ((await open(db, accountOf(prepared), silentPixKey)) === null ? "compensated" : "funds_reserved"),
  },
  {
    name: "duplicate trigger, finished saga",
    expectedState: "completed",
    roundTripsMax: 1,
    writesNothing: true,
    prepare: completedSaga,
    // The Durable Object holds the record it last wrote, so a webhook or alarm runs on that.
    run: async (db, prepared) => (await advance(ports(db), sagaOf(prepared), { cause: "poke" })).state,
  },
  {
    name: "duplicate trigger, finished saga, cold object",
    expectedState: "completed",
    roundTripsMax: 1,
    writesNothing: true,
    prepare: completedSaga,
    // An object that lost its storage reads the row once (as TransferSaga.current() does).
    run: async (db, prepared) => {
      const loaded = await loadSaga(db, sagaOf(prepared).id);
      if (!loaded) throw new Error("the finished saga vanished");
      return (await advance(ports(db), loaded, { cause: "poke" })).state;
    },
  },
];
