/**
 * The lease expressions every statement shares, written once. A purchase row is held by
 * `lease_owner` until `lease_expires_at`; a named lease (`leases`) by `owner` until `expires_at`.
 */

/** A lease expiry `ms` milliseconds from now; `ms` is a placeholder such as `$3`. */
export function leaseExpiresIn(ms: string): string {
  return `now() + ${ms}::int * interval '1 millisecond'`;
}

/** An expiry already past: releasing a named lease keeps its row (and its fence) but frees it. */
export const LEASE_EXPIRED_NOW = "now() - interval '1 millisecond'";

/** A purchase row nobody holds: never leased, released, or its holder's lease ran out. `alias` qualifies the columns. */
export function purchaseLeaseIsFree(alias?: string): string {
  const column = alias ? `${alias}.` : '';
  return `(${column}lease_owner IS NULL OR ${column}lease_expires_at < now())`;
}

/** `purchaseLeaseIsFree` on a row already read, as of `nowMs`. */
export function isPurchaseLeaseFree(
  row: { leaseOwner: string | null; leaseExpiresAt: Date | null },
  nowMs: number,
): boolean {
  return row.leaseOwner === null || (row.leaseExpiresAt !== null && row.leaseExpiresAt.getTime() < nowMs);
}
