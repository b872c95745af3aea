import { createHash } from 'node:crypto';
import type { FingerprintKeys } from '@starsgate/db';

/** SHA-256 of a token (hex): what a dashboard session keeps of the token it was opened with. */
export function adminTokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A token's public name in audit records and logs, from its digest: a hash keyed with the gateway's
 * own secret (the primary `STARSGATE_FINGERPRINT_KEY`, its own purpose among the keyed hashes), so
 * an audit row or a log line cannot be used to test candidate tokens offline, as an unkeyed hash
 * could (docs/security.md, attack 26). Rotating that key renames the tokens in later records.
 */
export function adminTokenIdOfDigest(digest: string, keys: FingerprintKeys): string {
  return keys.fingerprint(['admin-token-id', digest])!.slice(0, 16);
}

export function adminTokenId(token: string, keys: FingerprintKeys): string {
  return adminTokenIdOfDigest(adminTokenDigest(token), keys);
}
