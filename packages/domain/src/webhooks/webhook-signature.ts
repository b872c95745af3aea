import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a receiver should accept a signature's timestamp from its own clock (documented default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function webhookSignatureV1(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** `Starsgate-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: one `v1` per valid secret (rotation). */
export function webhookSignatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${webhookSignatureV1(secret, timestamp, rawBody)}`)].join(
    ',',
  );
}

/**
 * What a receiver does (the sample in docs/operations.md, in TypeScript): true when one `v1` of the header is
 * the HMAC of `<t>.<raw body>` under `secret` and `t` is within the tolerance of `nowSeconds`.
 */
export function verifyWebhookSignature(
  header: string,
  rawBody: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(webhookSignatureV1(secret, timestamp, rawBody), 'hex');
  return parts.some(([key, value]) => {
    if (key !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
