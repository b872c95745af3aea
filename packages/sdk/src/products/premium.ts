import { newIdempotencyKey, type OrderFields, type WalletFields } from '../core/order-params.js';
import type { AvailabilityResult, PriceQuote, PurchaseAccepted, Replayable } from '../types.js';
import type { ClientClass, WithMethods } from './product-methods.js';

export type BuyPremiumParams = OrderFields & WalletFields & { months: number; idempotency_key?: string };

/** Telegram Premium gifted by name: `months` (3, 6 or 12) for a user. */
export interface PremiumMethods {
  checkPremiumAvailability(params: OrderFields & { months: number }): Promise<AvailabilityResult>;
  getPremiumPrice(months: number): Promise<PriceQuote>;
  buyPremium(params: BuyPremiumParams): Promise<PurchaseAccepted & Replayable>;
}

export function withPremium<Base extends ClientClass>(base: Base): WithMethods<Base, PremiumMethods> {
  abstract class WithPremium extends base implements PremiumMethods {
    checkPremiumAvailability({ months, ...params }: OrderFields & { months: number }): Promise<AvailabilityResult> {
      return this.checkAvailability({ product: 'premium', amount: months, ...params });
    }

    getPremiumPrice(months: number): Promise<PriceQuote> {
      return this.getQuote('premium', months);
    }

    buyPremium({ months, idempotency_key, ...params }: BuyPremiumParams): Promise<PurchaseAccepted & Replayable> {
      return this.createPurchase({
        product: 'premium',
        amount: months,
        ...params,
        idempotency_key: idempotency_key ?? newIdempotencyKey(),
      });
    }
  }
  return WithPremium;
}
