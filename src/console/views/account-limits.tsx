// The account page's rules section: today's and tonight's usage, waiting increases, and the
// directory-lookup budget (a hit costs 1, a miss 20; it refills 2 a minute).
import type { AccountLimitsView } from "../data/account-limits.ts";
import { formatCents, formatTime } from "../format.ts";
import { Figure } from "./figure.tsx";

export function AccountLimitsSection({ view }: { view: AccountLimitsView }) {
  const { limits, lookupBudget } = view;
  const budgetFull = lookupBudget.tokens >= lookupBudget.tokens_max;
  return (
    <section aria-labelledby="limits-heading">
      <h2 id="limits-heading">Limits and lookups</h2>
      <div class="figures">
        <Figure
          label={`Left today (${limits.day})`}
          value={`${formatCents(limits.remaining_today_cents)} of ${formatCents(limits.daily_cents)}`}
        />
        <Figure
          label={`Left of the night of ${limits.night_evening} (${limits.night_starts_at}–${limits.night_ends_at})`}
          value={`${formatCents(limits.remaining_tonight_cents)} of ${formatCents(limits.night_total_cents)}`}
        />
        <Figure label="Directory lookups left" value={`${lookupBudget.tokens} of ${lookupBudget.tokens_max}`} />
      </div>
      <p>{budgetFull ? "The lookup budget is full." : `The lookup budget is full again at ${formatTime(lookupBudget.full_at)}.`}</p>
      {limits.pending.length === 0 ? (
        <p>No limit increase is waiting.</p>
      ) : (
        <ul aria-label="Increases waiting">
          {limits.pending.map((p) => (
            <li>
              {`${p.limit}: ${"value_cents" in p ? formatCents(p.value_cents) : p.value}, in force from ${formatTime(p.effective_at)}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
