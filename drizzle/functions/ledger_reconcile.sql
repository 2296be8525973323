-- Reconciliation: one read of the whole ledger. Divergences are returned, never repaired.
CREATE OR REPLACE FUNCTION public.ledger_reconcile()
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  WITH entry_sums AS (
    SELECT account_id, sum(amount_cents) AS total FROM entries GROUP BY account_id
  ), open_holds AS (
    SELECT account_id, sum(amount_cents) AS total FROM holds WHERE status = 'held' GROUP BY account_id
  ), per_account AS (
    SELECT a.id, a.kind, a.balance_cents, a.held_cents,
           coalesce(e.total, 0) AS entries_cents, coalesce(h.total, 0) AS open_holds_cents
    FROM accounts a
    LEFT JOIN entry_sums e ON e.account_id = a.id
    LEFT JOIN open_holds h ON h.account_id = a.id
  ), unbalanced AS (
    SELECT transaction_id, sum(amount_cents) AS total FROM entries
    GROUP BY transaction_id HAVING sum(amount_cents) <> 0
  ), divergences AS (
    SELECT jsonb_build_object('kind', 'balance_differs_from_entries', 'account_id', id,
             'balance_cents', balance_cents, 'entries_cents', entries_cents) AS d
      FROM per_account WHERE kind = 'customer' AND balance_cents <> entries_cents
    UNION ALL
    SELECT jsonb_build_object('kind', 'held_differs_from_open_holds', 'account_id', id,
             'held_cents', held_cents, 'open_holds_cents', open_holds_cents)
      FROM per_account WHERE held_cents <> open_holds_cents
    UNION ALL
    SELECT jsonb_build_object('kind', 'transaction_unbalanced', 'transaction_id', transaction_id,
             'sum_cents', total)
      FROM unbalanced
    UNION ALL
    SELECT jsonb_build_object('kind', 'entries_do_not_sum_to_zero', 'sum_cents', total)
      FROM (SELECT coalesce(sum(amount_cents), 0) AS total FROM entries) s WHERE total <> 0
  )
  SELECT jsonb_build_object(
    'ok', NOT EXISTS (SELECT 1 FROM divergences),
    'accounts_checked', (SELECT count(*) FROM accounts WHERE kind = 'customer'),
    'divergences', coalesce((SELECT jsonb_agg(d) FROM divergences), '[]'::jsonb));
$function$;
