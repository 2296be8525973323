// Whether an error means the database could not be reached, rather than that it refused the
// statement: the request may be retried as it is, so the answer is 503 with Retry-After, never a
// 500. A refusal carries a SQLSTATE and stays the error it is (a constraint, a bug); only a
// connection-class SQLSTATE counts as unreachable.

/**
 * SQLSTATEs of a server that cannot take the statement now: class 08 (connection exception),
 * 53300 too_many_connections, 57P01-57P03 (admin or crash shutdown, cannot connect now).
 */
const unreachableStates = /^(08...|53300|57P0[1-3])$/;

/**
 * The HTTP driver (Neon's `neon()`) throws a `NeonDbError` with no SQLSTATE when the fetch
 * fails or the endpoint answers without a PostgreSQL error (it could not reach the compute).
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = "code" in error ? error.code : undefined;
  if (typeof code === "string" && unreachableStates.test(code)) return true;
  return "name" in error && error.name === "NeonDbError" && (code === undefined || code === null);
}
