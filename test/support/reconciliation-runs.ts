// A provider reconciliation run whose statement read was lost to a loaded machine (a page that
// outlasted the suite's 400 ms provider timeout, or a dropped connection) ends incomplete, by
// design, and an operator runs it again. Tests that need a whole statement do the same.

/** What the run reports of its statement (GET /ops/reconciliation/provider/latest, POST). */
export interface RunStatement {
  complete: boolean;
  problem: string | null;
}

/** Runs in all when each loses its statement read that way. */
export const reconciliationRunsMax = 3;

const transientProblems = new Set(["timeout", "network_error"]);

/** The statement read was lost to the machine, not refused by what the provider said. */
export function statementReadLost(statement: RunStatement): boolean {
  return !statement.complete && transientProblems.has(statement.problem ?? "");
}
