import { leaseExpiresIn } from './lease-expressions';

/**
 * Takes lease `name` for `owner` for `ttlMs` if it is free, expired or already `owner`'s, with a
 * new fence, `RETURNING fence` (no row: someone else holds it). The arguments are the caller's
 * placeholders, so a larger statement can take a lease too (the fenced update entering a wallet's
 * sender). A conflicting row is locked either way (ON CONFLICT DO UPDATE locks the row it finds).
 */
export function acquireLeaseSql(name: string, owner: string, ttlMs: string): string {
  return `INSERT INTO leases (name, owner, fence, expires_at)
      VALUES (${name}::text, ${owner}::text, 1, ${leaseExpiresIn(ttlMs)})
      ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, fence = leases.fence + 1, expires_at = EXCLUDED.expires_at, updated_at = now()
      WHERE leases.expires_at < now() OR leases.owner = EXCLUDED.owner
      RETURNING fence`;
}
