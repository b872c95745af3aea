import type { NamedStatement } from './named-statement';

/**
 * CheckoutRepository.insertOrGetByKey: the checkout (`preparing`, no secret) and its first event
 * in one statement; a key this payer already used for a checkout inserts nothing (keys are scoped
 * to the payer address, the checkout's idempotency_scope). $1 id, $2 key, $3 scope, $4 fingerprint,
 * $5 its key id, $6 product, $7 username, $8 amount, $9 payment method, $10 payer (raw), $11 payer
 * public key, $12 payer state init, $13 request id, $14 actor, $15 reason, $16 order line.
 */
export const CHECKOUT_INTAKE: NamedStatement = {
  name: 'checkout_intake',
  text: `
  WITH checkout AS (
    INSERT INTO purchases (id, mode, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                           order_line, payment_method, requested_wallet_address, wallet_address, payer_public_key, payer_state_init, request_id)
    VALUES ($1, 'client_signed', $2, $3, $4, $5, 'preparing', $6, $7, $8, $16::jsonb, $9, $10, $10, $11, $12, $13)
    ON CONFLICT (mode, idempotency_scope, idempotency_key) DO NOTHING
    RETURNING *
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, request_id)
    SELECT id, NULL, 'preparing', version, $14, $15, $13 FROM checkout
  )
  SELECT * FROM checkout`,
};
