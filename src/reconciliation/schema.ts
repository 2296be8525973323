// Provider reconciliation's records (CONTRACT §5): each run with its window, actor and verdict,
// and the paid-after-release cases a person must decide. Written only by the SQL functions
// drizzle/functions/provider_reconciliation_record.sql and provider_case_decide.sql.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { at } from "../db/columns.ts";
import { sqlStringList } from "../db/sql-list.ts";
import { transferKey } from "../transfers/schema.ts";
import { caseDecisions } from "./case-decisions.ts";

export const providerReconciliationRuns = pgTable(
  "provider_reconciliation_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    windowFrom: at("window_from").notNull(),
    windowTo: at("window_to").notNull(),
    actor: text("actor").notNull(),
    ranAt: at("ran_at").notNull().defaultNow(),
    ok: boolean("ok").notNull(),
    /** Whether the provider's whole statement was read; when not, why. */
    statementComplete: boolean("statement_complete").notNull(),
    statementProblem: text("statement_problem"),
    checked: integer("checked").notNull(),
    returnsApplied: integer("returns_applied").notNull(),
    divergences: jsonb("divergences").notNull(),
  },
  (t) => [
    check(
      "provider_reconciliation_runs_window",
      sql`${t.windowTo} > ${t.windowFrom} AND ${t.windowTo} - ${t.windowFrom} <= interval '24 hours'`,
    ),
    check("provider_reconciliation_runs_problem_iff_incomplete", sql`${t.statementComplete} = (${t.statementProblem} IS NULL)`),
    check("provider_reconciliation_runs_counts", sql`${t.checked} >= 0 AND ${t.returnsApplied} >= 0`),
    check("provider_reconciliation_runs_divergences_list", sql`jsonb_typeof(${t.divergences}) = 'array'`),
  ],
);

/**
 * A Pix the provider paid after we released its hold: money gone that no one recovers by
 * themselves. Never corrected against the customer; open until an operator records a decision.
 */
export const providerReconciliationCases = pgTable(
  "provider_reconciliation_cases",
  {
    transferId: transferKey(),
    endToEndId: text("end_to_end_id"),
    openedAt: at("opened_at").notNull().defaultNow(),
    /** The run that found it. */
    runId: bigint("run_id", { mode: "number" })
      .notNull()
      .references(() => providerReconciliationRuns.id),
    /** Our release (its history row), the provider's confirmation, both sides as the run saw them. */
    evidence: jsonb("evidence").notNull(),
    decidedAt: at("decided_at"),
    decidedBy: text("decided_by"),
    decision: text("decision"),
    note: text("note"),
  },
  (t) => [
    check(
      "provider_reconciliation_cases_decided_together",
      sql`(${t.decidedAt} IS NULL) = (${t.decidedBy} IS NULL) AND (${t.decidedAt} IS NULL) = (${t.decision} IS NULL) AND (${t.decidedAt} IS NULL) = (${t.note} IS NULL)`,
    ),
    check(
      "provider_reconciliation_cases_decision_known",
      sql`${t.decision} IS NULL OR ${t.decision} IN (${sql.raw(sqlStringList(caseDecisions))})`,
    ),
    check("provider_reconciliation_cases_note_bounded", sql`${t.note} IS NULL OR char_length(${t.note}) BETWEEN 1 AND 1000`),
    index("provider_reconciliation_cases_open").on(t.openedAt).where(sql`${t.decidedAt} IS NULL`),
  ],
);
