import { Cell } from '@ton/core';
import type { PaymentRequest } from '@starsgate/domain';

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
