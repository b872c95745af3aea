import { AppError } from '@starsgate/domain';
import type { OpenOrderTally } from './open-order-tally';

export interface OpenOrderCaps {
  /** Open unpaid orders one payer wallet may have (OPEN_ORDERS_PER_PAYER). */
  perPayer: number;
  /** Open unpaid orders of all payers together (OPEN_ORDERS_TOTAL). */
  total: number;
  /** The retry_after of a refusal (OPEN_ORDERS_RETRY_AFTER_SECONDS). */
  retryAfterSeconds: number;
}

export interface OpenOrderGuard {
  openOrders: OpenOrderTally;
  caps: OpenOrderCaps;
}

/**
 * Every open order holds a Fragment order on the operator's login, so intake refuses a new one
 * past the caps (docs/security.md, attack 4): 429 OPEN_ORDERS_LIMIT_REACHED with
 * retry_after. A replay of an order already stored (`isReplay`, asked only when refusing) is
 * never refused: it creates nothing.
 */
export async function assertOpenOrderRoom(
  guard: OpenOrderGuard,
  payers: readonly string[],
  payerField: string,
  isReplay: () => Promise<boolean>,
): Promise<void> {
  const { caps } = guard;
  const counts = await guard.openOrders.count(payers, caps);
  const payerFull = payers.length > 0 && counts.payer >= caps.perPayer;
  if (!payerFull && counts.total < caps.total) {
    guard.openOrders.passed(payers);
    return;
  }
  if (await isReplay()) return;
  throw new AppError('OPEN_ORDERS_LIMIT_REACHED', {
    retryAfterSeconds: caps.retryAfterSeconds,
    details: [
      payerFull
        ? { field: payerField, message: `this wallet has ${caps.perPayer} orders waiting to be paid` }
        : { field: 'idempotency_key', message: `${caps.total} orders are waiting to be paid` },
    ],
  });
}
