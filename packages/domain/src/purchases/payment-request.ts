import type { Product } from '../products';

/** The payer's TON Connect account Fragment's order was made for (raw address, network id, StateInit, key). */
export interface PaymentRequestAccount {
  /** Raw address `0:<64 hex>`. */
  address: string;
  /** `-239` mainnet, `-3` testnet. */
  chain: '-239' | '-3';
  /** base64 BOC of the wallet's StateInit. */
  walletStateInit: string;
  /** 64 hex chars. */
  publicKey: string;
}

/**
 * What Fragment asked us to pay, after the worker's policy accepted it: the `payment_request`
 * column, read by the worker, the operator's view and the payment proofs. Amounts are integer
 * base-unit strings; `payload` is Fragment's cell exactly as returned.
 */
export interface PaymentRequest {
  currency: 'GRAM' | 'USDT';
  product: Product;
  validUntil: number;
  account: PaymentRequestAccount;
  /** Absent when Fragment named no confirm method: then there is no confirm call. */
  confirmMethod?: string;
  confirmParams: Record<string, string>;
  /**
   * The wallet Fragment named as `transaction.from` (raw when it parses): the payer, or the wallet
   * linked to the Fragment account (docs/fragment-protocol.md §17). Absent on requests stored before it was recorded.
   */
  fragmentFrom?: string;
  /** Fragment's own message, kept when the USDT transfer was rebuilt through the payer's jetton wallet. */
  fragmentMessage?: { address: string; amount: string; payload?: string };
  /** The one internal message to sign: destination raw, nanoGRAM value, payload base64url. */
  message: { address: string; amount: string; payload: string };
  ref: string;
  comment: string;
  /** Fragment's order amount (init), base units of `currency`. */
  quote: string;
  jetton?: { jettonWallet: string; amount: string; destination: string; queryId: string };
  /** The Fragment login session that created the order: the only one that may confirm it. */
  fragmentSession?: string;
  /**
   * The Fragment account (the login's `accountId`) the order was made on: only that account's
   * history lists it, so only its orders are counted against that history (docs/fragment-protocol.md
   * §17.5). Absent on requests stored before it was recorded.
   */
  fragmentAccount?: string;
  /**
   * The worker's MAC over this request and the purchase it was accepted for (`paymentRequestCovered`
   * in the worker), checked before signing: a row rewritten in the database is never paid.
   */
  mac?: { keyId: string; value: string };
}
