import type { NamedStatement } from './named-statement';

/**
 * PaidLookalikes.since. $1 lower-case usernames, $2 products, $3 amounts (one
 * entry per order), $4 the earliest creation time looked at. Our purchases of the same recipient,
 * product and quantity, created since $4, paid on chain and not failed, with when each completed
 * and the Fragment account it was made on (null: stored before it was recorded).
 */
export const PAID_LOOKALIKES: NamedStatement = {
  name: 'purchase_paid_lookalikes',
  text: `
  SELECT id, lower(username) AS username, product, amount, created_at, completed_at,
    payment_request->>'fragmentAccount' AS fragment_account FROM purchases
  WHERE (lower(username), product, amount) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::int[]))
    AND created_at >= $4::timestamptz AND transaction_hash IS NOT NULL AND status <> 'failed'`,
};
