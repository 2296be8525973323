// The fault proxy's switchboard: which faults are on, for which connections, until when, and
// how many of each were actually injected. Connections are scoped by the application_name of
// their startup message (the saga objects connect as `pix-saga`, API requests as
// `pix-cashout`, test helpers as `pix-test`), so a fault can hit the sagas and spare the
// invariant checker.

/**
 * latency: every chunk held `latencyMs` more. blackhole: connections accepted, bytes held until
 * the window ends (then flushed, or the connection reset). reset: in-scope connections are cut
 * and new ones cut at once. cut_before: a statement matching the pattern is never forwarded and
 * its connection is cut (nothing reached Postgres). drop_reply: a matching statement runs and
 * commits, then the connection is cut instead of relaying the reply (the outcome is unknown to
 * the client).
 */
export const faultKinds = ["latency", "blackhole", "reset", "cut_before", "drop_reply"] as const;
export type FaultKind = (typeof faultKinds)[number];

export interface FaultRuleInput {
  kind: FaultKind;
  /** How long the rule stays armed. */
  durationMs: number;
  /** Connections it applies to, by application_name; null: every connection. */
  applicationNames: readonly string[] | null;
  latencyMs?: number;
  /** cut_before and drop_reply: the statements they apply to (case-insensitive regex source). */
  statementPattern?: string;
  /** cut_before and drop_reply: how many statements to hit before disarming; null: no limit. */
  count?: number | null;
  /** blackhole: what happens to the held connections when the window ends. */
  endWith?: "flush" | "reset";
}

export interface FaultRule {
  id: number;
  kind: FaultKind;
  untilMs: number;
  applicationNames: readonly string[] | null;
  latencyMs: number;
  statementPattern: RegExp | null;
  remaining: number | null;
  endWith: "flush" | "reset";
}

/** What the relay needs from one of its connections. */
export interface FaultTarget {
  readonly id: number;
  applicationName(): string | null;
  upstreamPort(): number | null;
  /** Cut both sides now. */
  reset(reason: string): void;
  /** Re-evaluate held bytes: a rule started or ended. */
  wake(): void;
}

export type StatementFault = "cut_before" | "drop_reply" | null;

/** Bounds what a control request can ask for: a fault drill, not a way to wedge a machine. */
export const faultDurationMsMax = 600_000;
export const faultLatencyMsMax = 60_000;

export class FaultRules {
  private readonly rules = new Map<number, FaultRule>();
  private readonly targets = new Map<number, FaultTarget>();
  private readonly injectedByKind = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextRuleId = 1;
  private lastTargetId = 0;

  add(input: FaultRuleInput): FaultRule {
    const nowMs = Date.now();
    const rule: FaultRule = {
      id: this.nextRuleId++,
      kind: input.kind,
      untilMs: nowMs + Math.min(Math.max(0, input.durationMs), faultDurationMsMax),
      applicationNames: input.applicationNames,
      latencyMs: Math.min(Math.max(0, input.latencyMs ?? 0), faultLatencyMsMax),
      statementPattern: input.statementPattern === undefined ? null : new RegExp(input.statementPattern, "i"),
      remaining: input.count ?? null,
      endWith: input.endWith ?? "flush",
    };
    this.rules.set(rule.id, rule);
    if (rule.kind === "latency" || rule.kind === "blackhole") this.count(rule.kind);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.end(rule.id);
    }, rule.untilMs - nowMs);
    this.timers.add(timer);
    if (rule.kind === "reset") {
      for (const target of this.targets.values()) {
        if (this.inScope(rule, target)) this.resetTarget(target, "reset");
      }
    }
    this.wakeAll();
    return rule;
  }

  /** Ends every rule now (held bytes flow again). */
  clear(): void {
    for (const id of [...this.rules.keys()]) this.end(id);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.rules.clear();
  }

  active(): FaultRule[] {
    return [...this.rules.values()];
  }

  /** Ids for targets: WebSocket relays, HTTP exchanges and the HTTP path's server connections. */
  nextTargetId(): number {
    this.lastTargetId += 1;
    return this.lastTargetId;
  }

  register(target: FaultTarget): void {
    this.targets.set(target.id, target);
  }

  unregister(target: FaultTarget): void {
    this.targets.delete(target.id);
  }

  connections(): { id: number; applicationName: string | null; upstreamPort: number | null }[] {
    return [...this.targets.values()].map((t) => ({ id: t.id, applicationName: t.applicationName(), upstreamPort: t.upstreamPort() }));
  }

  injected(): Record<string, number> {
    return Object.fromEntries(this.injectedByKind);
  }

  /** Called once the startup message named the connection: a reset in force cuts it now. */
  admit(target: FaultTarget): boolean {
    for (const rule of this.rules.values()) {
      if (rule.kind === "reset" && this.inScope(rule, target)) {
        this.resetTarget(target, "reset");
        return false;
      }
    }
    return true;
  }

  /** Extra delay for bytes of this connection right now. */
  latencyMs(target: FaultTarget): number {
    let latencyMs = 0;
    for (const rule of this.rules.values()) {
      if (rule.kind === "latency" && this.inScope(rule, target)) latencyMs = Math.max(latencyMs, rule.latencyMs);
    }
    return latencyMs;
  }

  /** Whether this connection's bytes are held by a blackhole right now. */
  isHeld(target: FaultTarget): boolean {
    for (const rule of this.rules.values()) {
      if (rule.kind === "blackhole" && this.inScope(rule, target)) return true;
    }
    return false;
  }

  /** A statement about to be forwarded: does an armed rule cut it or drop its reply? */
  takeStatementFault(target: FaultTarget, sql: string): StatementFault {
    for (const rule of this.rules.values()) {
      if (rule.kind !== "cut_before" && rule.kind !== "drop_reply") continue;
      if (!this.inScope(rule, target) || rule.statementPattern === null || !rule.statementPattern.test(sql)) continue;
      if (rule.remaining !== null) {
        rule.remaining -= 1;
        if (rule.remaining <= 0) this.rules.delete(rule.id);
      }
      this.count(rule.kind);
      return rule.kind;
    }
    return null;
  }

  private end(id: number): void {
    const rule = this.rules.get(id);
    if (!rule) return;
    this.rules.delete(id);
    if (rule.kind === "blackhole" && rule.endWith === "reset") {
      for (const target of this.targets.values()) {
        if (this.inScope(rule, target)) this.resetTarget(target, "blackhole_reset");
      }
    }
    this.wakeAll();
  }

  private resetTarget(target: FaultTarget, kind: string): void {
    this.count(`${kind}_connections`);
    target.reset(kind);
  }

  private wakeAll(): void {
    for (const target of this.targets.values()) target.wake();
  }

  private count(kind: string): void {
    this.injectedByKind.set(kind, (this.injectedByKind.get(kind) ?? 0) + 1);
  }

  private inScope(rule: FaultRule, target: FaultTarget): boolean {
    if (rule.applicationNames === null) return true;
    const name = target.applicationName();
    return name !== null && rule.applicationNames.includes(name);
  }
}
