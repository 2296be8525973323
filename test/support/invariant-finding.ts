// What one of the invariant checks found wrong, before checkInvariants names the invariant
// (invariants.ts): the per-invariant files return these.

export interface Finding {
  subject: string;
  detail: string;
}

export function finding(subject: string, detail: string): Finding {
  return { subject, detail };
}
