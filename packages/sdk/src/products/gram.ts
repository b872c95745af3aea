import { newIdempotencyKey, type OrderFields, type WalletFields } from '../core/order-params.js';
import type { AvailabilityResult, PriceQuote, PurchaseAccepted, Replayable } from '../types.js';
import type { ClientClass, WithMethods } from './product-methods.js';

/** A GRAM top-up is paid in GRAM only: `payment_method` may be left out. */
export type BuyGramParams = Omit<OrderFields, 'payment_method'> &
  WalletFields & { amount: number; payment_method?: 'gram' | 'ton'; idempotency_key?: string };

/** The GRAM top-up by name: `amount` whole GRAM to a user's Telegram balance. */
export interface GramMethods {
  /** Can this user receive `amount` whole GRAM on their Telegram balance (paid in GRAM)? */
  checkGramAvailability(params: { username: string; amount: number }): Promise<AvailabilityResult>;
  /** A top-up's price is its amount in GRAM; `usdt` is only its worth. */
  getGramPrice(amount: number): Promise<PriceQuote>;
  /** `createPurchase` for a GRAM top-up of `amount` whole GRAM to the user's Telegram balance. */
  buyGram(params: BuyGramParams): Promise<PurchaseAccepted & Replayable>;
}

export function withGram<Base extends ClientClass>(base: Base): WithMethods<Base, GramMethods> {
  abstract class WithGram extends base implements GramMethods {
    checkGramAvailability({ username, amount }: { username: string; amount: number }): Promise<AvailabilityResult> {
      return this.checkAvailability({ product: 'gram', username, amount, payment_method: 'gram' });
    }

    getGramPrice(amount: number): Promise<PriceQuote> {
      return this.getQuote('gram', amount);
    }

    buyGram({
      amount,
      idempotency_key,
      payment_method,
      ...params
    }: BuyGramParams): Promise<PurchaseAccepted & Replayable> {
      return this.createPurchase({
        product: 'gram',
        amount,
        payment_method: payment_method ?? 'gram',
        ...params,
        idempotency_key: idempotency_key ?? newIdempotencyKey(),
      });
    }
  }
  return WithGram;
}
