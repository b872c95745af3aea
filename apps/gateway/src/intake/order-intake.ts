import { randomUUID } from 'node:crypto';
import type { FingerprintKeys, KeyedInsertResult, OrderIntakeColumns, PurchaseRow } from '@starsgate/db';
import { lineAmount } from '@starsgate/domain';
import type { Logger } from '@starsgate/platform';
import type { GatewayMetrics } from '../observability/metrics';
import type { PurchaseJobEnqueuer } from '../purchases/purchase-job-enqueuer';
import { assertOpenOrderRoom, type OpenOrderGuard } from './open-order-caps';
import { assertSameOrder, orderFingerprint, type LogicalOrder } from './order-fingerprint';
import type { OrderKind } from './order-kind';

export interface OrderIntakeDeps {
  fingerprints: FingerprintKeys;
  metrics: GatewayMetrics;
  openOrders: OpenOrderGuard;
  jobs: PurchaseJobEnqueuer;
}

/** As much of a stored order as intake reads: what it answers with, enqueues and compares a repeat with. */
export type StoredOrder = Pick<PurchaseRow, 'id' | 'version' | 'fingerprintKeyId' | 'requestFingerprint'>;

/** One request's order, its payer identified by its kind's entry point (create-purchase.ts, create-checkout.ts). */
export interface OrderClaim<Row extends StoredOrder> {
  kind: OrderKind;
  order: LogicalOrder;
  idempotencyKey: string;
  /** The payer's namespace the key lives in (docs/security.md, attack 5). */
  idempotencyScope: string;
  /** The payer wallets (raw) the per-payer cap counts. */
  payers: readonly string[];
  /** The order this kind stored under the key in this scope. */
  findByKey: () => Promise<Row | undefined>;
  /**
   * Checks only a new order must pass, too costly to pay for on a replay (a chain read). When a
   * kind has them, the key is looked up before them, so a replay is answered without them.
   */
  admitNewOrder?: () => Promise<void>;
  /** Stores the order with the shared columns and its kind's own, or gets the order already under the key. */
  insertOrGet: (columns: OrderIntakeColumns) => Promise<KeyedInsertResult<Row>>;
}

export interface AcceptedOrder<Row> {
  row: Row;
  replayed: boolean;
}

/**
 * The one intake of every order kind (local-only: foreign calls happen in the worker):
 * caps → fingerprint → insert-or-get under the scoped key → replay or 409 → enqueue. The spec's
 * idempotency rules: the same key with the same logical order replays the stored order, with
 * another order it is 409 IDEMPOTENCY_KEY_REUSED. A failed enqueue is repaired by the sweeper,
 * so it does not fail the request.
 */
export async function intakeOrder<Row extends StoredOrder>(
  deps: OrderIntakeDeps,
  claim: OrderClaim<Row>,
  context: { requestId: string; log: Logger },
): Promise<AcceptedOrder<Row>> {
  const { kind, order } = claim;
  const lookedUp = claim.admitNewOrder !== undefined;
  if (lookedUp) {
    const existing = await claim.findByKey();
    if (existing) return replayOrConflict(deps, existing, order);
  }
  // A replay creates nothing, so the caps never refuse one; the key is looked up only to refuse.
  await assertOpenOrderRoom(deps.openOrders, claim.payers, kind.payerField, async () =>
    lookedUp ? false : Boolean(await claim.findByKey()),
  );
  await claim.admitNewOrder?.();

  const result = await claim.insertOrGet({
    id: randomUUID(),
    idempotencyKey: claim.idempotencyKey,
    idempotencyScope: claim.idempotencyScope,
    requestFingerprint: orderFingerprint(deps.fingerprints, order)!,
    fingerprintKeyId: deps.fingerprints.primaryKeyId,
    product: order.line.product,
    username: order.line.recipient,
    amount: lineAmount(order.line),
    orderLine: order.line,
    paymentMethod: order.paymentMethod,
    requestId: context.requestId,
  });
  // Not created: the key was already taken, perhaps by a concurrent request that won the insert.
  if (!result.created) return replayOrConflict(deps, result.purchase, order);

  deps.metrics.purchasesCreated.inc({
    product: order.line.product,
    payment_method: order.paymentMethod,
    mode: kind.mode,
  });
  await deps.jobs.enqueueOrLeaveToSweeper(result.purchase, context, kind.idField);
  return { row: result.purchase, replayed: false };
}

function replayOrConflict<Row extends StoredOrder>(
  deps: OrderIntakeDeps,
  existing: Row,
  order: LogicalOrder,
): AcceptedOrder<Row> {
  assertSameOrder(deps, existing, order);
  return { row: existing, replayed: true };
}
