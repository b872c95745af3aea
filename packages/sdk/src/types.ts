/**
 * Request and result types: the gateway's own, generated from its /openapi.json
 * (generated/openapi-types.ts, checked by test/openapi-contract.test.ts), plus the SDK-side ones.
 */
import type { Checkout, CreatePurchaseRequest, Purchase } from './generated/openapi-types.js';
import type { Quantities } from './order-quantities.js';

export type {
  AvailabilityCheckRequest,
  AvailabilityResult,
  Checkout,
  CheckoutAccepted,
  CreateCheckoutRequest,
  SubmitCheckoutRequest,
  TonConnectTransaction,
  TonProofPayload,
  CreatePurchaseRequest,
  ErrorBody,
  PriceList,
  PricePair,
  PriceQuote,
  ProductCatalog,
  ProductField,
  Purchase,
  PurchaseAccepted,
  ResolvedWallet,
  ResolveWalletRequest,
} from './generated/openapi-types.js';

export type Product = Purchase['product'];
/** One entry of `products.list()`: a product, its fields and limits (the document's `Product` schema). */
export type { Product as ProductInfo } from './generated/openapi-types.js';
export type { Quantities } from './order-quantities.js';

/** The fields an order has whatever its product; every other request field carries a quantity. */
type OrderKeys =
  | 'product'
  | 'username'
  | 'payment_method'
  | 'seed'
  | 'wallet_address'
  | 'account_index'
  | 'idempotency_key'
  | 'payer_address'
  | 'payer_public_key'
  | 'payer_state_init'
  | 'ton_proof';

/**
 * An order with its quantities as request fields (`amount`; a giveaway's `winners`, `months`) or
 * as `quantities` by their catalogue names (`{ winners: 10, months: 3 }`).
 */
export type WithQuantities<T> = T extends unknown
  ? T | (Pick<T, Extract<keyof T, OrderKeys>> & { quantities: Quantities })
  : never;
export type PaymentMethodInput = CreatePurchaseRequest['payment_method'];
export type PurchaseStatus = Purchase['status'];

/** SDK-side: the `Idempotent-Replayed` header (the same key was sent before). */
export interface Replayable {
  replayed: boolean;
}

export type CheckoutStatus = Checkout['status'];
/** A failed, expired or reconciliation_required order's `error`. */
export type OrderError = NonNullable<Checkout['error']>;

/** What `wait` and `waitForCheckout` add to the final object: whether a new order is safe, and what to do. */
export interface Outcome {
  /** True only when the order certainly paid nothing (failed, expired). */
  readonly replacementAllowed: boolean;
  readonly advice: string | null;
}

export interface WaitOptions<T> {
  /** Default 300 000 ms. */
  timeoutMs?: number;
  /** Default 2 000 ms. */
  pollIntervalMs?: number;
  onUpdate?: (current: T) => void;
}
