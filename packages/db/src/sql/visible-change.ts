import type { PurchaseRow } from '../schema';

/**
 * The columns of a purchase a client sees (GET /api/v1/purchases/:id) that change after intake.
 * `updated_at` moves only when one of them does; every other write of the worker (claims, polls,
 * heartbeats, wake-ups, evidence) moves `worked_at` alone.
 */
export const CLIENT_VISIBLE_CHANGES = ['status', 'transactionHash', 'error'] as const satisfies ReadonlyArray<
  keyof PurchaseRow
>;

/** Worker bookkeeping on every write: when the worker last wrote the row. */
export const WORKED_NOW = 'worked_at = now()';
