// A comparison of our record with the provider's, field by field, as a person reads it: each
// side written for humans, and whether they differ. A field one side does not state is shown as
// such and never marked: silence is not a contradiction.

export interface ComparedField {
  label: string;
  ours: string;
  /** Null when the provider's side does not state it. */
  theirs: string | null;
  differs: boolean;
}

/** A field both sides may state; it differs when both do and they are not the same. */
export function compared(label: string, ours: string | null, theirs: string | null): ComparedField {
  return { label, ours: ours ?? "—", theirs, differs: ours !== null && theirs !== null && ours !== theirs };
}

export function differingCount(fields: readonly ComparedField[]): number {
  return fields.filter((field) => field.differs).length;
}
