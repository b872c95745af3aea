/**
 * Request and result types. Those the gateway documents come from its /openapi.json
 * (generated/openapi-types.ts, checked by test/openapi-contract.test.ts); the checkout shapes
 * follow the checkout API's specification until its schemas are in that document.
 */
import type { CreatePurchaseRequest, Purchase } from './generated/openapi-types.js';

export type {
  AvailabilityCheckRequest,
  AvailabilityResult,
  CreatePurchaseRequest,
  ErrorBody,
  PriceList,
  PricePair,
  PriceQuote,
  Purchase,
  PurchaseAccepted,
  ResolvedWallet,
  ResolveWalletRequest,
} from './generated/openapi-types.js';

export type Product = Purchase['product'];
export type PaymentMethodInput = CreatePurchaseRequest['payment_method'];
export type PurchaseStatus = Purchase['status'];

/** SDK-side: the `Idempotent-Replayed` header (the same key was sent before). */
export interface Replayable {
  replayed: boolean;
}

export type CheckoutStatus =
  | 'preparing'
  | 'awaiting_signature'
  | 'submitted'
  | 'confirming'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'reconciliation_required';

export interface CreateCheckoutRequest {
  product: Product;
  username: string;
  amount: number;
  payment_method: PaymentMethodInput;
  /** The buyer's wallet (TON Connect `account.address`). */
  payer_address: string;
  /** TON Connect `account.publicKey` (64 hex); needed only while the payer wallet is not deployed. */
  payer_public_key?: string;
  /** TON Connect `account.walletStateInit` (Base64 BOC); needed only while the payer wallet is not deployed. */
  payer_state_init?: string;
  idempotency_key: string;
}

export interface CheckoutAccepted {
  checkout_id: string;
  status: CheckoutStatus;
  status_url: string;
}

/** A TON Connect `sendTransaction` request: hand it to `tonConnectUI.sendTransaction` unchanged. */
export interface TonConnectTransaction {
  validUntil: number;
  network: '-239' | '-3';
  from: string;
  messages: Array<{ address: string; amount: string; payload?: string; stateInit?: string }>;
}

export interface OrderError {
  code: string;
  message: string;
  action?: string;
  details?: Array<Record<string, unknown>>;
}

export interface Checkout {
  checkout_id: string;
  status: CheckoutStatus;
  product: Product;
  username: string;
  amount: number;
  payment_method: Purchase['payment_method'];
  payer_address: string;
  created_at: string;
  updated_at: string;
  valid_until?: string;
  prices?: { gram?: string; usdt?: string };
  transaction?: TonConnectTransaction;
  transaction_hash?: string;
  error?: OrderError;
}

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
