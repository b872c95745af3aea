import type { NamedStatement } from './named-statement';

/**
 * CheckoutRepository.insertOrGetByKey: the checkout (`preparing`, no secret) and its first event
 * in one statement; a key this payer already used for a checkout inserts nothing (keys are scoped
 * to the payer address, also the checkout's idempotency_scope). $1 id, $2 key, $3 fingerprint,
 * $4 its key id, $5 product, $6 username, $7 amount, $8 payment method, $9 payer (raw), $10 payer
 * public key, $11 payer state init, $12 request id, $13 actor, $14 reason.
 */
export const CHECKOUT_INTAKE: NamedStatement = {
  name: 'checkout_intake',
  text: `
  WITH checkout AS (
    INSERT INTO purchases (id, mode, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                           payment_method, requested_wallet_address, wallet_address, payer_public_key, payer_state_init, request_id)
    VALUES ($1, 'client_signed', $2, $9, $3, $4, 'preparing', $5, $6, $7, $8, $9, $9, $10, $11, $12)
    ON CONFLICT (mode, idempotency_scope, idempotency_key) DO NOTHING
    RETURNING *
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, request_id)
    SELECT id, NULL, 'preparing', version, $13, $14, $12 FROM checkout
  )
  SELECT * FROM checkout`,
};
