import {
  AppError,
  canonicalQuantities,
  canonicalUsername,
  type OrderLine,
  type PaymentMethod,
} from '@starsgate/domain';
import type { FingerprintKeys, PurchaseRow } from '@starsgate/db';
import type { GatewayMetrics } from '../observability/metrics';

export interface LogicalOrder {
  route: 'purchases' | 'checkouts';
  line: OrderLine;
  paymentMethod: PaymentMethod;
  /** Wallet identity: the secret (keyed-hashed, never stored), the address (raw), the index. */
  seed?: string;
  walletAddressRaw?: string | null;
  accountIndex?: number | null;
}

/** Mnemonic words are case- and spacing-insensitive; a Base64 key is not. */
export function canonicalSeed(seed: string): string {
  const words = seed.trim().split(/\s+/);
  return words.length > 1 ? words.join(' ').toLowerCase() : seed.trim();
}

/**
 * The spec's logical order: recipient, product, quantities, payment method and wallet. Null when
 * `keyId` (an existing row's) is no longer configured. A one-quantity product's quantities hash as
 * the bare amount they hashed as before order lines (`canonicalQuantities`), so a stored order's
 * fingerprint is unchanged and its retried request still replays.
 */
export function orderFingerprint(fingerprints: FingerprintKeys, order: LogicalOrder, keyId?: string): string | null {
  return fingerprints.fingerprint(
    [
      order.route,
      order.line.product,
      canonicalUsername(order.line.recipient),
      canonicalQuantities(order.line),
      order.paymentMethod,
      order.seed === undefined ? '' : canonicalSeed(order.seed),
      order.walletAddressRaw ?? '',
      order.accountIndex === undefined || order.accountIndex === null ? '' : String(order.accountIndex),
    ],
    keyId,
  );
}

/**
 * An idempotency key found in use: a replay if `existing` was created for the same logical order
 * (counted), else 409 IDEMPOTENCY_KEY_REUSED.
 */
export function assertSameOrder(
  deps: { fingerprints: FingerprintKeys; metrics: GatewayMetrics },
  existing: Pick<PurchaseRow, 'fingerprintKeyId' | 'requestFingerprint'>,
  order: LogicalOrder,
): void {
  // A row hashed with a key no longer listed cannot be compared: refused, never taken as a replay.
  if (orderFingerprint(deps.fingerprints, order, existing.fingerprintKeyId) !== existing.requestFingerprint) {
    deps.metrics.idempotencyConflicts.inc({ kind: 'key_reused' });
    throw new AppError('IDEMPOTENCY_KEY_REUSED', {
      details: [
        {
          field: 'idempotency_key',
          message:
            'was already used for a different order (recipient, product, amount, payment method or wallet differ)',
        },
      ],
    });
  }
  deps.metrics.idempotentReplays.inc();
}
