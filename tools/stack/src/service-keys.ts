import { randomBytes } from 'node:crypto';
import { generateRingEntry, parseKeyRing, sealKeyOf } from '@starsgate/db';

/** The key variables each service gets, and what the gateway must not inherit from the launcher's environment. */
export interface ServiceKeys {
  worker: Record<string, string>;
  gateway: Record<string, string>;
  withheldFromGateway: string[];
}

/**
 * As in production (docs/security.md): the worker gets the ring that opens secrets, the gateway
 * only its public half. A ring whose first key is a legacy symmetric one has no public half: the
 * gateway then keeps STARSGATE_SECRET_KEY (development tolerates it, with a warning).
 */
export function serviceKeys(ringValue: string, sealKey?: string): ServiceKeys {
  const ring = parseKeyRing(ringValue);
  if (ring.keys.get(ring.primaryId)!.kind !== 'x25519') return { worker: {}, gateway: {}, withheldFromGateway: [] };
  return {
    worker: { STARSGATE_SECRET_KEY: ringValue },
    gateway: { STARSGATE_SEAL_KEY: sealKey || sealKeyOf(ring) },
    withheldFromGateway: ['STARSGATE_SECRET_KEY'],
  };
}

/** Fresh keys for a throw-away stack: a new ring, its public half, a fingerprint key. */
export function generatedServiceKeys(): ServiceKeys {
  const keys = serviceKeys(generateRingEntry('s1'));
  return {
    ...keys,
    gateway: { ...keys.gateway, STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}` },
  };
}
