import { Cell } from '@ton/core';
import { coinOf, humanAmount, purchaseView, type PaymentRequest } from '@starsgate/domain';
import type { PurchaseEventRow, PurchaseRow, SignedExternalRow } from '@starsgate/db';

/** A purchase in the operator's listing: the public view plus what an operator searches by. */
export function adminPurchaseSummary(row: PurchaseRow) {
  return {
    ...purchaseView(row),
    // The public view shows an error only at a terminal status; operators see it whenever stored.
    ...(row.error ? { error: row.error } : {}),
    mode: row.mode,
    idempotency_key: row.idempotencyKey,
    wallet_address: row.walletAddress,
    version: row.version,
    completed_at: row.completedAt?.toISOString() ?? null,
  };
}

/** What Fragment asked to be paid: base units for machines, and the same amounts as people read them. */
function paidAmount(request: PaymentRequest) {
  const coin = coinOf(request.currency);
  return {
    currency: request.currency ?? null,
    quote: request.quote ?? null,
    quote_human: coin ? humanAmount(request.quote, coin) : null,
    message_nano: request.message?.amount ?? null,
    message_human: humanAmount(request.message?.amount, 'GRAM'),
    receiver: request.jetton?.destination ?? request.message?.address ?? null,
    ...(request.jetton
      ? { jetton_units: request.jetton.amount ?? null, jetton_human: humanAmount(request.jetton.amount, 'USDT') }
      : {}),
  };
}

function eventType(event: PurchaseEventRow): string {
  // `token:<id>`: an admin token's resolution; `operator:<name>`: one recorded before attack 13's fix.
  if (event.actor.startsWith('token:') || event.actor.startsWith('operator:')) return 'operator';
  return event.fromStatus === event.toStatus ? 'step' : 'transition';
}

/**
 * One purchase for an operator: its summary, the payment Fragment asked for, the signed message's
 * hashes, the full timeline and the evidence, and why it waits (`waiting_reason`: our identical
 * orders on the same Fragment account not delivered yet). Built field by field from the row: never the
 * sealed secret (which lives elsewhere), never Fragment cookies, never the signed BOC itself.
 */
export function adminPurchaseDetail(
  row: PurchaseRow,
  events: readonly PurchaseEventRow[],
  external: SignedExternalRow | undefined,
  waitingOnLookalikes: readonly string[] = [],
) {
  const request = row.paymentRequest;
  return {
    ...adminPurchaseSummary(row),
    waiting_on_lookalikes: [...waitingOnLookalikes],
    waiting_reason:
      waitingOnLookalikes.length > 0
        ? `waiting on look-alike ${waitingOnLookalikes.join(', ')}`
        : row.status === 'confirming'
          ? "waiting for Fragment's history to list the delivery"
          : null,
    wallet_version: row.walletVersion,
    fragment_request_id: row.fragmentReqId,
    fragment_ref: row.fragmentRef,
    fragment_session: request?.fragmentSession ?? null,
    fragment_from: request?.fragmentFrom ?? null,
    fragment_from_is_payer: request?.fragmentFrom ? request.fragmentFrom === row.walletAddress : null,
    paid_amount: request ? paidAmount(request) : null,
    normalized_hash: row.normalizedHash,
    external_hash: external ? Cell.fromBase64(external.boc).hash().toString('hex') : null,
    seqno: row.seqno,
    valid_until: row.validUntil,
    transaction_hash: row.transactionHash,
    transaction_lt: row.transactionLt,
    attempt: row.attempt,
    next_run_at: row.nextRunAt.toISOString(),
    evidence: row.evidence ?? null,
    events: events.map((event) => ({
      at: event.createdAt.toISOString(),
      type: eventType(event),
      from_status: event.fromStatus,
      to_status: event.toStatus,
      actor: event.actor,
      reason: event.reason,
      details: event.data ?? null,
    })),
  };
}
