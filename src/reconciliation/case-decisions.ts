// What an operator may decide on a paid-after-release case, and how long their note may be:
// read by the API, the console and the table's CHECK (schema.ts). Kept out of the drizzle
// schema file so the Worker does not bundle drizzle-orm to read two constants.

/** What an operator may decide on a paid-after-release case (the note says why). */
export const caseDecisions = ["recovered", "written_off", "provider_error"] as const;
export type CaseDecision = (typeof caseDecisions)[number];
/** An operator's note on a decision: the API and the console refuse a longer one. */
export const caseNoteLengthMax = 1_000;
