// How chaos counts a server error: the contract allows a fault to answer only 503 problem+json
// with Retry-After ("retry with the same Idempotency-Key"); any other 5xx (a 500 from an
// exception that escaped a route) is a bug even when a retry later succeeds, so it is counted
// apart, and the scenarios that provoke faults require that count to be 0.

/** A 5xx the contract allows: 503 with Retry-After. */
export function isRetryableFault(response: Response): boolean {
  return response.status === 503 && response.headers.get("retry-after") !== null;
}

/** The chaos table's counters for one answer: every 5xx, and those that are not a retryable fault. */
export function serverErrorCounters(response: Response): { "http.5xx": number; "http.5xx_not_retryable": number } {
  const serverError = response.status >= 500;
  return { "http.5xx": serverError ? 1 : 0, "http.5xx_not_retryable": serverError && !isRetryableFault(response) ? 1 : 0 };
}
