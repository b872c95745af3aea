import type { CreatePurchaseRequest, PaymentMethodInput } from '../types.js';

/** The recipient and payment method of a named product's order. */
export type OrderFields = { username: string; payment_method: PaymentMethodInput };
/** How a server-side purchase names its paying wallet. */
export type WalletFields = Pick<CreatePurchaseRequest, 'seed' | 'wallet_address' | 'account_index'>;

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
