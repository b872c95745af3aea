import {
  CLIENT_SIGNED_LIFECYCLE,
  PURCHASE_LIFECYCLES,
  PURCHASE_STATUSES,
  SERVER_SIGNED_LIFECYCLE,
  type PurchaseLifecycle,
  type PurchaseStatus,
} from './purchase-status';

/**
 * The status lists the rest of the service reads, each derived from the lifecycles
 * (purchase-status.ts), never written by hand: a status added to a lifecycle lands in the right
 * lists by itself. Each list is in PURCHASE_STATUSES order.
 */

const LIFECYCLES: readonly PurchaseLifecycle[] = Object.values(PURCHASE_LIFECYCLES);

/**
 * A status the worker moves a purchase out of in some mode: each has its step in the worker (the
 * claim itself moves `queued`), checked by the compiler through this type.
 */
export type WorkerStatus =
  keyof (typeof SERVER_SIGNED_LIFECYCLE)['workerMoves'] | keyof (typeof CLIENT_SIGNED_LIFECYCLE)['workerMoves'];

function isWorkerStatus(status: PurchaseStatus): status is WorkerStatus {
  return LIFECYCLES.some((lifecycle) => (lifecycle.workerMoves[status] ?? []).length > 0);
}

function isResolvableStatus(status: PurchaseStatus): boolean {
  return LIFECYCLES.some((lifecycle) => (lifecycle.operatorMoves[status] ?? []).length > 0);
}

/** The statuses the worker moves a purchase out of, in some mode. */
export const WORKER_STATUSES: readonly WorkerStatus[] = PURCHASE_STATUSES.filter(isWorkerStatus);

/** The statuses only an operator moves a purchase out of (an uncertain outcome to resolve). */
export const RESOLVABLE_STATUSES: readonly PurchaseStatus[] = PURCHASE_STATUSES.filter(isResolvableStatus);

/**
 * The statuses a purchase can still be waiting in: the worker's and the operator's. The pipeline's
 * open counts (the dashboard, the open-purchases gauges) read these. Not `completed`, `failed` or
 * `expired`: nothing moves those on by itself (an expired checkout moves only on proof from the
 * chain, a correction rather than a wait).
 */
export const OPEN_STATUSES: readonly PurchaseStatus[] = PURCHASE_STATUSES.filter(
  (status) => isWorkerStatus(status) || isResolvableStatus(status),
);
