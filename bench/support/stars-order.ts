/** A 12-word BIP-39 phrase the benches pay from (no funds needed: the gateway only stores the order). */
const BENCH_PHRASE = 'cook voyage document eight skate token alien guide drink uncle term abuse';

/**
 * The body of the benches' POST /api/v1/purchases: 50 Stars for @alice in GRAM. In an autocannon
 * body, `[<id>]` in the key is replaced per request, so every POST is a new order.
 */
export function starsOrderJson(idempotencyKey: string): string {
  return JSON.stringify({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    seed: BENCH_PHRASE,
    account_index: 0,
    idempotency_key: idempotencyKey,
  });
}
