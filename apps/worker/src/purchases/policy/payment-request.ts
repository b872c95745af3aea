import { Cell } from '@ton/core';
import type { Product } from '@starsgate/domain';
import type { TonConnectAccount } from '@starsgate/fragment';

/**
 * What Fragment asked us to pay, after the policy accepted it (stored in `payment_request`).
 * Amounts are integer base-unit strings; `payload` is Fragment's cell exactly as returned.
 */
export interface PaymentRequest {
  currency: 'GRAM' | 'USDT';
  product: Product;
  validUntil: number;
  account: TonConnectAccount;
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
}

export function paymentRequestOf(value: unknown): PaymentRequest | null {
  return value && typeof value === 'object' ? (value as PaymentRequest) : null;
}

/** Seconds a payment request is given for signing, persisting and broadcasting once judged signable. */
const SIGN_AND_BROADCAST_SECONDS = 5;

/**
 * The least `validUntil` a payment request may carry to be signed now: MIN_VALIDITY_SECONDS must
 * still be left once it is signed and broadcast (the policy checks the same bound when accepting).
 */
export function minSignableValidUntil(nowMs: number, minValiditySeconds: number): number {
  return Math.floor(nowMs / 1000) + minValiditySeconds + SIGN_AND_BROADCAST_SECONDS;
}

/** GRAM that leaves the wallet with this message, and USDT that leaves its jetton wallet. */
export function outflow(request: PaymentRequest): { gram: bigint; usdt: bigint } {
  return { gram: BigInt(request.message.amount), usdt: request.jetton ? BigInt(request.jetton.amount) : 0n };
}

/** Fragment's payload exactly as returned (base64url or base64): the cell we sign, never re-encoded. */
export function payloadCell(payload: string): Cell {
  const [cell] = Cell.fromBoc(Buffer.from(payload, 'base64url'));
  if (!cell) throw new Error('payload BOC has no root cell');
  return cell;
}
