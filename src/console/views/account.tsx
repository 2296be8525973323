// The account page: balance, held and available, its limits and lookup budget, its devices, then
// its latest ledger entries, transfers and recurring transfers.

import type { TransferResource } from "../../transfers/store.ts";
import type { AccountEntry, AccountView } from "../data/account.ts";
import type { AccountLimitsView } from "../data/account-limits.ts";
import type { DeviceView } from "../data/devices.ts";
import { formatCents, formatTime } from "../format.ts";
import { AccountLimitsSection } from "./account-limits.tsx";
import { DevicesSection } from "./devices.tsx";
import { Figure } from "./figure.tsx";
import { Layout, StateBadge } from "./layout.tsx";
import { TransferLink } from "./links.tsx";
import { RecurringSection } from "./recurring.tsx";
import { type Column, DataTable } from "./table.tsx";

const entryColumns: Column<AccountEntry>[] = [
  { label: "At", cell: (e) => formatTime(e.at) },
  { label: "Kind", cell: (e) => e.kind },
  { label: "Amount", num: true, cell: (e) => formatCents(e.amountCents) },
  { label: "Balance after", num: true, cell: (e) => (e.balanceAfterCents === null ? "—" : formatCents(e.balanceAfterCents)) },
  { label: "Transfer", cell: (e) => (e.transferId === null ? "—" : <TransferLink id={e.transferId} />) },
];

const transferColumns: Column<TransferResource>[] = [
  { label: "Created", cell: (t) => formatTime(typeof t.created_at === "string" ? t.created_at : null) },
  { label: "Transfer", cell: (t) => <TransferLink id={t.id} code /> },
  { label: "State", cell: (t) => <StateBadge state={t.state} /> },
  { label: "Amount", num: true, cell: (t) => (typeof t.amount_cents === "number" ? formatCents(t.amount_cents) : "—") },
  { label: "Failure", cell: (t) => (typeof t.failure_reason === "string" ? t.failure_reason : "—") },
];

/** A section of the account's latest rows of one kind, newest first. */
function LatestSection<Row>({
  id,
  title,
  noun,
  columns,
  rows,
}: {
  id: string;
  title: string;
  noun: string;
  columns: Column<Row>[];
  rows: Row[];
}) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <DataTable caption={`The latest ${rows.length} ${noun}, newest first`} columns={columns} rows={rows} empty={`No ${noun} yet.`} />
    </section>
  );
}

export interface AccountPageProps {
  account: AccountView;
  limits: AccountLimitsView;
  devices: DeviceView[];
  /** DEVICE_RULES: whether unregistered devices are capped. */
  deviceRules: boolean;
  csrfToken: string;
}

export function AccountPage({ account, limits, devices, deviceRules, csrfToken }: AccountPageProps) {
  const { balance, entries, transfers, recurrences } = account;
  return (
    <Layout title={`Account ${balance.accountId}`} csrfToken={csrfToken}>
      <div class="figures">
        <Figure label="Balance" value={formatCents(balance.balanceCents)} />
        <Figure label="Held" value={formatCents(balance.heldCents)} />
        <Figure label="Available" value={formatCents(balance.availableCents)} />
      </div>
      <AccountLimitsSection view={limits} />
      <DevicesSection devices={devices} deviceRules={deviceRules} />
      <LatestSection id="entries" title="Recent ledger entries" noun="entries" columns={entryColumns} rows={entries} />
      <LatestSection id="transfers" title="Recent transfers" noun="transfers" columns={transferColumns} rows={transfers} />
      <RecurringSection recurrences={recurrences} />
    </Layout>
  );
}
