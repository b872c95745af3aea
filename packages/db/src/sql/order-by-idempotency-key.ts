import type { NamedStatement } from './named-statement';

/**
 * The order an idempotency key names: keys are scoped by route (the row's mode) and payer
 * (`idempotency_scope` = $1), so a key is looked up among one payer's orders of one kind only.
 */
export function orderByIdempotencyKey(name: string, mode: 'server_signed' | 'client_signed'): NamedStatement {
  return {
    name,
    text: `SELECT * FROM purchases WHERE mode = '${mode}' AND idempotency_scope = $1 AND idempotency_key = $2`,
  };
}
