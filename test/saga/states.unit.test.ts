// The allowed-transition table, written out in full so any change to src/saga/states.ts has to
// be made twice: once in the code and once here, on purpose.
import { describe, expect, it } from "vitest";
import {
  assertPath,
  assertTransition,
  canTransition,
  isInFlight,
  isTerminal,
  type TransferState,
  transferStates,
} from "../../src/saga/states.ts";

// Rows are `from`, columns are `to`, both in the order of `transferStates`; 1 = allowed.
// biome-ignore format: a table reads best as a grid
const table: Record<TransferState, readonly (0 | 1)[]> = {
  //              scheduled  started  funds_reserved  submitted  completed  compensating  compensated  needs_review  canceled
  scheduled:      [0,        1,       0,              0,         0,         0,            0,           0,            1],
  started:        [0,        0,       1,              0,         0,         0,            1,           0,            0],
  funds_reserved: [0,        0,       0,              1,         0,         1,            0,           1,            0],
  submitted:      [0,        0,       0,              0,         1,         1,            0,           1,            0],
  completed:      [0,        0,       0,              0,         0,         0,            0,           0,            0],
  compensating:   [0,        0,       0,              0,         0,         0,            1,           0,            0],
  compensated:    [0,        0,       0,              0,         0,         0,            0,           0,            0],
  needs_review:   [0,        0,       1,              0,         1,         0,            1,           0,            0],
  canceled:       [0,        0,       0,              0,         0,         0,            0,           0,            0],
};

const pairs = transferStates.flatMap((from) => transferStates.map((to, column) => ({ from, to, allowed: table[from][column] === 1 })));

describe("the transition table", () => {
  it("lists the nine states in the order of the table's rows, which is its columns' order", () => {
    expect(transferStates).toEqual(Object.keys(table));
    expect(pairs).toHaveLength(81);
  });

  it.each(pairs)("$from -> $to is allowed: $allowed", ({ from, to, allowed }) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it("allows exactly fourteen transitions", () => {
    expect(pairs.filter((p) => canTransition(p.from, p.to))).toHaveLength(14);
  });

  it("never allows a state to transition to itself", () => {
    for (const state of transferStates) expect(canTransition(state, state)).toBe(false);
  });

  it("nothing leaves a terminal state", () => {
    for (const to of transferStates) {
      expect(canTransition("completed", to)).toBe(false);
      expect(canTransition("compensated", to)).toBe(false);
      expect(canTransition("canceled", to)).toBe(false);
    }
  });

  it("reports completed, compensated and canceled, and only those, as terminal", () => {
    expect(transferStates.filter(isTerminal)).toEqual(["completed", "compensated", "canceled"]);
  });

  it("reports the states the saga advances by itself as in flight (needs_review waits for a person)", () => {
    expect(transferStates.filter(isInFlight)).toEqual(["scheduled", "started", "funds_reserved", "submitted", "compensating"]);
  });

  it("never reaches completed from compensated, by any path", () => {
    // Breadth-first search over the allowed graph from compensated.
    const seen = new Set<TransferState>(["compensated"]);
    const queue: TransferState[] = ["compensated"];
    for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
      for (const to of transferStates) {
        if (canTransition(state, to) && !seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    expect([...seen]).toEqual(["compensated"]);
  });

  it("never reaches completed once compensation has begun", () => {
    expect(canTransition("compensating", "completed")).toBe(false);
    expect(transferStates.filter((to) => canTransition("compensating", to))).toEqual(["compensated"]);
  });
});

describe("assertTransition", () => {
  it.each(pairs.filter((p) => !p.allowed))("throws on the disallowed $from -> $to, naming both states", ({ from, to }) => {
    expect(() => assertTransition(from, to)).toThrow(`saga invariant violated: ${from} -> ${to} is not a transition`);
  });

  it.each(pairs.filter((p) => p.allowed))("accepts the allowed $from -> $to", ({ from, to }) => {
    expect(assertTransition(from, to)).toBeUndefined();
  });
});

describe("assertPath", () => {
  it("accepts the empty path (only a check recorded)", () => {
    for (const from of transferStates) expect(() => assertPath(from, [])).not.toThrow();
  });

  it.each<{ from: TransferState; path: TransferState[] }>([
    { from: "started", path: ["funds_reserved", "submitted", "completed"] },
    { from: "started", path: ["compensated"] },
    { from: "scheduled", path: ["started", "funds_reserved", "submitted", "completed"] },
    { from: "scheduled", path: ["started", "compensated"] },
    { from: "scheduled", path: ["canceled"] },
    { from: "funds_reserved", path: ["compensating", "compensated"] },
    { from: "funds_reserved", path: ["submitted", "completed"] },
    { from: "submitted", path: ["needs_review", "compensated"] },
    { from: "submitted", path: ["compensating", "compensated"] },
  ])("accepts $from -> $path, each hop allowed", ({ from, path }) => {
    expect(() => assertPath(from, path)).not.toThrow();
  });

  it.each<{ from: TransferState; path: TransferState[]; badHop: string }>([
    { from: "funds_reserved", path: ["compensated"], badHop: "funds_reserved -> compensated" },
    { from: "started", path: ["funds_reserved", "completed"], badHop: "funds_reserved -> completed" },
    { from: "submitted", path: ["compensating", "compensated", "completed"], badHop: "compensated -> completed" },
    { from: "compensated", path: ["completed"], badHop: "compensated -> completed" },
    { from: "submitted", path: ["submitted"], badHop: "submitted -> submitted" },
    { from: "started", path: ["submitted"], badHop: "started -> submitted" },
    { from: "scheduled", path: ["completed"], badHop: "scheduled -> completed" },
    { from: "scheduled", path: ["funds_reserved"], badHop: "scheduled -> funds_reserved" },
    { from: "started", path: ["canceled"], badHop: "started -> canceled" },
  ])("rejects $from -> $path at the hop $badHop", ({ from, path, badHop }) => {
    expect(() => assertPath(from, path)).toThrow(`saga invariant violated: ${badHop} is not a transition`);
  });

  it("checks each hop from the previous state, not from the start", () => {
    // started -> compensated is allowed, but here the hop is funds_reserved -> compensated.
    expect(() => assertPath("started", ["funds_reserved", "compensated"])).toThrow("funds_reserved -> compensated");
  });
});
