import { starsOrder } from '@starsgate/gateway/testing';

/**
 * The body of the benches' POST /api/v1/purchases: the gateway tests' order (50 Stars for @alice
 * in GRAM, from a public BIP-39 test phrase: no funds needed, the gateway only stores the order).
 * In an autocannon body, `[<id>]` in the key is replaced per request, so every POST is a new order.
 */
export function starsOrderJson(idempotencyKey: string): string {
  return JSON.stringify(starsOrder({ idempotency_key: idempotencyKey }));
}
