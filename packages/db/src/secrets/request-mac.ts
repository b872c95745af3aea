import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { KeyRing, RingKey } from './key-ring';
import { rawPrivateKey } from './x25519';

const MAC_INFO = 'starsgate/payment-request-mac/v1';

/** A MAC as stored beside what it covers: the ring key id it was made with, and the hex HMAC-SHA256. */
export interface RequestMacTag {
  keyId: string;
  value: string;
}

/** JSON with object keys sorted at every level: the same bytes after a jsonb round trip. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function keyMaterial(key: RingKey): Buffer {
  return key.kind === 'aes' ? key.key : rawPrivateKey(key.privateKey);
}

/**
 * MACs over what the worker accepted to pay (docs/security.md, attack 18), keyed by HKDF from the
 * worker's own `STARSGATE_SECRET_KEY` ring: the gateway (which only seals) and whoever can write
 * the database cannot make one, so a rewritten `payment_request` fails at signing. The purchase id
 * is part of what is covered, so a request cannot be moved to another purchase either.
 */
export class RequestMac {
  private readonly keys = new Map<string, Buffer>();
  private readonly primaryId: string;

  constructor(ring: KeyRing) {
    this.primaryId = ring.primaryId;
    for (const [id, key] of ring.keys) {
      const material = keyMaterial(key);
      this.keys.set(id, Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), MAC_INFO, 32)));
      if (key.kind === 'x25519') material.fill(0);
    }
  }

  private compute(keyId: string, purchaseId: string, covered: unknown): Buffer | undefined {
    const key = this.keys.get(keyId);
    if (!key) return undefined;
    return createHmac('sha256', key)
      .update(`${purchaseId.length}:${purchaseId}`)
      .update(canonicalJson(covered))
      .digest();
  }

  sign(purchaseId: string, covered: unknown): RequestMacTag {
    return { keyId: this.primaryId, value: this.compute(this.primaryId, purchaseId, covered)!.toString('hex') };
  }

  /** False for a missing tag, an unknown key id or a MAC that does not match. */
  verify(purchaseId: string, covered: unknown, tag: RequestMacTag | undefined): boolean {
    if (!tag || typeof tag.keyId !== 'string' || typeof tag.value !== 'string') return false;
    const expected = this.compute(tag.keyId, purchaseId, covered);
    const given = Buffer.from(tag.value, 'hex');
    return expected !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
  }
}
