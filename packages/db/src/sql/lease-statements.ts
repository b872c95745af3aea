import { acquireLeaseSql } from './acquire-lease';
import { LEASE_EXPIRED_NOW, leaseExpiresIn } from './lease-expressions';
import type { NamedStatement } from './named-statement';

/** LeaseRepository.acquire. $1 name, $2 owner, $3 ttl ms. */
export const ACQUIRE_LEASE: NamedStatement = { name: 'lease_acquire', text: acquireLeaseSql('$1', '$2', '$3') };

/** LeaseRepository.renew. $1 name, $2 owner, $3 fence, $4 ttl ms: only under the same fence. */
export const RENEW_LEASE: NamedStatement = {
  name: 'lease_renew',
  text: `UPDATE leases SET expires_at = ${leaseExpiresIn('$4')}, updated_at = now() WHERE name = $1 AND owner = $2 AND fence = $3`,
};

/** LeaseRepository.release. $1 name, $2 owner, $3 fence. */
export const RELEASE_LEASE: NamedStatement = {
  name: 'lease_release',
  text: `UPDATE leases SET expires_at = ${LEASE_EXPIRED_NOW}, updated_at = now() WHERE name = $1 AND owner = $2 AND fence = $3`,
};

/** LeaseRepository.releaseOwnedBy. $1 name, $2 owner, whatever the fence, if it is still held. */
export const RELEASE_LEASE_OWNED_BY: NamedStatement = {
  name: 'lease_release_owned_by',
  text: `UPDATE leases SET expires_at = ${LEASE_EXPIRED_NOW}, updated_at = now() WHERE name = $1 AND owner = $2 AND expires_at > now()`,
};
