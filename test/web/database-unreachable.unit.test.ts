import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "../../src/web/database-unreachable.ts";

/** The shape Neon's HTTP driver throws: a NeonDbError, with the server's SQLSTATE when it had one. */
function neonError(message: string, code?: string): Error {
  const error = new Error(message) as Error & { code?: string };
  error.name = "NeonDbError";
  if (code !== undefined) error.code = code;
  return error;
}

describe("isDatabaseUnreachable", () => {
  it("is true when the driver could not reach the database (no SQLSTATE)", () => {
    expect(isDatabaseUnreachable(neonError("Error connecting to database: fetch failed"))).toBe(true);
  });

  it("is true for the server's connection-class SQLSTATEs", () => {
    for (const code of ["08006", "08001", "53300", "57P01", "57P03"]) expect(isDatabaseUnreachable(neonError("x", code)), code).toBe(true);
  });

  it("is false when the database answered with a refusal, and for other errors", () => {
    for (const code of ["23514", "P0001", "42883", "55P03"]) expect(isDatabaseUnreachable(neonError("x", code)), code).toBe(false);
    expect(isDatabaseUnreachable(new Error("fetch failed"))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    expect(isDatabaseUnreachable("08006")).toBe(false);
  });
});
