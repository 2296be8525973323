// The account page: balance, held and available, its limits and lookup budget, then its latest
// ledger entries and transfers.
import type { AccountView } from "../data/account.ts";
import type { AccountLimitsView } from "../data/account-limits.ts";
import { formatCents, formatTime } from "../format.ts";
import { AccountLimitsSection } from "./account-limits.tsx";
import { Layout, StateBadge } from "./layout.tsx";

function Figure({ label, cents }: { label: string; cents: number }) {
  return (
    <div class="figure">
      <span class="label">{label}</span>
      <span class="value">{formatCents(cents)}</span>
    </div>
  );
}

export function AccountPage({ account, limits, csrfToken }: { account: AccountView; limits: AccountLimitsView; csrfToken: string }) {
  const { balance, entries, transfers } = account;
  return (
    <Layout title={`Account ${balance.accountId}`} csrfToken={csrfToken}>
      <div class="figures">
        <Figure label="Balance" cents={balance.balanceCents} />
        <Figure label="Held" cents={balance.heldCents} />
        <Figure label="Available" cents={balance.availableCents} />
      </div>
      <AccountLimitsSection view={limits} />
      <section aria-labelledby="entries-heading">
        <h2 id="entries-heading">Recent ledger entries</h2>
        {entries.length === 0 ? (
          <p>No entries yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="cards">
              <caption>{`The latest ${entries.length} entries, newest first`}</caption>
              <thead>
                <tr>
                  <th scope="col">At</th>
                  <th scope="col">Kind</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                  <th scope="col" class="num">
                    Balance after
                  </th>
                  <th scope="col">Transfer</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr>
                    <td data-label="At">{formatTime(e.at)}</td>
                    <td data-label="Kind">{e.kind}</td>
                    <td data-label="Amount" class="num">
                      {formatCents(e.amountCents)}
                    </td>
                    <td data-label="Balance after" class="num">
                      {e.balanceAfterCents === null ? "—" : formatCents(e.balanceAfterCents)}
                    </td>
                    <td data-label="Transfer">
                      {e.transferId === null ? "—" : <a href={`/console/transfers/${e.transferId}`}>{e.transferId}</a>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="transfers-heading">
        <h2 id="transfers-heading">Recent transfers</h2>
        {transfers.length === 0 ? (
          <p>No transfers yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="cards">
              <caption>{`The latest ${transfers.length} transfers, newest first`}</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Transfer</th>
                  <th scope="col">State</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                  <th scope="col">Failure</th>
                </tr>
              </thead>
              <tbody>
                {transfers.map((t) => (
                  <tr>
                    <td data-label="Created">{formatTime(typeof t.created_at === "string" ? t.created_at : null)}</td>
                    <td data-label="Transfer">
                      <a href={`/console/transfers/${t.id}`}>
                        <code>{t.id}</code>
                      </a>
                    </td>
                    <td data-label="State">
                      <StateBadge state={t.state} />
                    </td>
                    <td data-label="Amount" class="num">
                      {typeof t.amount_cents === "number" ? formatCents(t.amount_cents) : "—"}
                    </td>
                    <td data-label="Failure">{typeof t.failure_reason === "string" ? t.failure_reason : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}
