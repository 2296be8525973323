// Links to a transfer's and an account's page, spelled once: account ids are encoded into the
// path, transfer ids are UUIDs and go in as they are.

/** `code` sets the id in monospace, as the lists of transfers show it. */
export function TransferLink({ id, code }: { id: string; code?: boolean }) {
  return <a href={`/console/transfers/${id}`}>{code ? <code>{id}</code> : id}</a>;
}

export function AccountLink({ id }: { id: string }) {
  return <a href={`/console/accounts/${encodeURIComponent(id)}`}>{id}</a>;
}
