// Who acts on /ops and the console (CONTRACT §5). A person is told apart by their Cloudflare
// Access identity (`sub`): an email changes and has aliases (ana+x@ is still ana), so four eyes
// compares identities; the audit records the email, which people read. OPS_TOKEN is a machine,
// shared by every script that holds it: it names no one, so it can never be the second pair of
// eyes, and what only a person may decide it may not do.
//
//   const operator = personOperator(identity.email, identity.sub);   // or machineOperator
//   if (!mayResolveAs(operator, "sent")) return 403;

/** The actor a request with OPS_TOKEN records, and its identity: a machine, not a person. */
export const opsTokenActor = "ops-token";

export interface Operator {
  /** What the audit shows: the Access email (lowercased), or `ops-token`. */
  actor: string;
  /** Who it is: `access:<sub>`, or `ops-token`. The prefix keeps a `sub` from ever reading as the machine. */
  operatorId: string;
}

export const machineOperator: Operator = { actor: opsTokenActor, operatorId: opsTokenActor };

export function personOperator(email: string, sub: string): Operator {
  return { actor: email, operatorId: `access:${sub}` };
}

export function isMachine(operator: Operator): boolean {
  return operator.operatorId === opsTokenActor;
}

/**
 * Resolutions only a person may make: `sent` settles a hold on the operator's word that the
 * provider paid, and `approve` sends a Pix that anti-fraud stopped. `not_sent` gives the money
 * back to its owner, which a machine may do.
 */
const personOnlyOutcomes: ReadonlySet<string> = new Set(["sent", "approve"]);

export function mayResolveAs(operator: Operator, outcome: string): boolean {
  return !(isMachine(operator) && personOnlyOutcomes.has(outcome));
}
