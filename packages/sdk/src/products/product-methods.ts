import type {
  AvailabilityCheckRequest,
  AvailabilityResult,
  CreatePurchaseRequest,
  PriceQuote,
  Product,
  PurchaseAccepted,
  Replayable,
  WithQuantities,
} from '../types.js';
import type { Quantities } from '../order-quantities.js';

/** The generic calls a product's named methods are written over. */
export interface GenericOrders {
  checkAvailability(params: WithQuantities<AvailabilityCheckRequest>): Promise<AvailabilityResult>;
  getQuote(product: Product, amount: number | Quantities): Promise<PriceQuote>;
  createPurchase(params: WithQuantities<CreatePurchaseRequest>): Promise<PurchaseAccepted & Replayable>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- a mixin's class takes its base's constructor arguments, whatever they are */
/** A client class a product's methods are mixed into. */
export type ClientClass = abstract new (...args: any[]) => GenericOrders;
/** `Base` with a product's named methods mixed in. */
export type WithMethods<Base extends ClientClass, Methods> = Base & (abstract new (...args: any[]) => Methods);
/* eslint-enable @typescript-eslint/no-explicit-any */
