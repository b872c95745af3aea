import { newIdempotencyKey, type OrderFields, type WalletFields } from '../core/order-params.js';
import type { AvailabilityResult, PriceQuote, PurchaseAccepted, Replayable } from '../types.js';
import type { ClientClass, WithMethods } from './product-methods.js';

export type BuyStarsParams = OrderFields & WalletFields & { amount: number; idempotency_key?: string };

/** Telegram Stars by name: `amount` Stars for a user. */
export interface StarsMethods {
  checkStarsAvailability(params: OrderFields & { amount: number }): Promise<AvailabilityResult>;
  getStarsPrice(amount: number): Promise<PriceQuote>;
  /** `createPurchase` for Stars with a key generated once for this call (and reused by its retries). */
  buyStars(params: BuyStarsParams): Promise<PurchaseAccepted & Replayable>;
}

export function withStars<Base extends ClientClass>(base: Base): WithMethods<Base, StarsMethods> {
  abstract class WithStars extends base implements StarsMethods {
    checkStarsAvailability(params: OrderFields & { amount: number }): Promise<AvailabilityResult> {
      return this.checkAvailability({ product: 'stars', ...params });
    }

    getStarsPrice(amount: number): Promise<PriceQuote> {
      return this.getQuote('stars', amount);
    }

    buyStars({ amount, idempotency_key, ...params }: BuyStarsParams): Promise<PurchaseAccepted & Replayable> {
      return this.createPurchase({
        product: 'stars',
        amount,
        ...params,
        idempotency_key: idempotency_key ?? newIdempotencyKey(),
      });
    }
  }
  return WithStars;
}
