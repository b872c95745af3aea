import type { OrderLine } from '@starsgate/domain';
import type { PurchaseRow } from '../schema';
import { fromDriverRow } from './driver-rows';

/**
 * The columns every order's intake writes, whatever its kind: its id, the idempotency key within
 * its payer's scope (docs/security.md, attack 5), the fingerprint a repeat is compared with, and
 * the logical order.
 */
export interface OrderIntakeColumns {
  id: string;
  idempotencyKey: string;
  idempotencyScope: string;
  requestFingerprint: string;
  fingerprintKeyId: string;
  product: string;
  username: string;
  amount: number;
  orderLine: OrderLine;
  paymentMethod: string;
  requestId: string;
}

/** An intake's answer: the order it stored, or the one already stored under the key (`created: false`). */
export type KeyedInsertResult<Row> = { created: boolean; purchase: Row };

/** Raised when a concurrent request holds the idempotency key's row lock past the wait bound. */
export class IdempotencyKeyLockedError extends Error {
  constructor() {
    super('idempotency key is locked by a concurrent request');
    this.name = 'IdempotencyKeyLockedError';
  }
}

/**
 * Raised when PostgreSQL refuses one purchase's values (a data exception or a check or not-null
 * violation): the request's content is at fault, not the service, so it is a client error.
 */
export class PurchaseRowRejectedError extends Error {
  constructor(readonly sqlState: string) {
    super(`PostgreSQL rejected the purchase's values (SQLSTATE ${sqlState})`);
    this.name = 'PurchaseRowRejectedError';
  }
}

export const LOCK_NOT_AVAILABLE = '55P03';
const CHECK_VIOLATION = '23514';
const NOT_NULL_VIOLATION = '23502';
const DATA_EXCEPTION_CLASS = '22';

export function hasCode(error: unknown, code: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === code) return true;
  }
  return false;
}

export function rowRejection(error: unknown): PurchaseRowRejectedError | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code === CHECK_VIOLATION || code === NOT_NULL_VIOLATION || code.startsWith(DATA_EXCEPTION_CLASS))
    ) {
      return new PurchaseRowRejectedError(code);
    }
  }
  return undefined;
}

/**
 * The one insert-or-get of every order kind: `insert` runs an intake statement that claims the
 * key (`ON CONFLICT … DO NOTHING`, so a concurrent duplicate waits on the unique index until the
 * winner commits, bounded by lock_timeout) and returns the stored row, or nothing when the key was
 * taken; then `findExisting` reads the order stored under it.
 */
export async function insertOrGetByKey(
  insert: () => Promise<Record<string, unknown> | undefined>,
  findExisting: () => Promise<PurchaseRow | undefined>,
): Promise<KeyedInsertResult<PurchaseRow>> {
  let inserted: Record<string, unknown> | undefined;
  try {
    inserted = await insert();
  } catch (error) {
    if (hasCode(error, LOCK_NOT_AVAILABLE)) throw new IdempotencyKeyLockedError();
    throw rowRejection(error) ?? error;
  }
  if (inserted) return { created: true, purchase: fromDriverRow(inserted) };
  const existing = await findExisting();
  if (!existing) throw new Error('idempotency key conflict without a row');
  return { created: false, purchase: existing };
}
