import { WebhookVerificationError } from './core/errors.js';

export const SIGNATURE_HEADER = 'Starsgate-Signature';
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  sequence: number;
  /** The public GET body of the purchase (or checkout) at that status. */
  data: D;
}

export interface VerifyWebhookOptions {
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;
const encoder = new TextEncoder();

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && HEX_DIGEST.test(value.trim().toLowerCase())) signatures.push(value.trim().toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0)
    throw new WebhookVerificationError(`Malformed ${SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex>.`, {
      code: 'WEBHOOK_SIGNATURE_MALFORMED',
    });
  return { timestamp, signatures };
}

async function hmacHex(secret: string, message: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Compares every character, whatever matches first, so timing tells nothing. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Checks a webhook delivery and returns its event; throws WebhookVerificationError otherwise.
 * `payload` is the raw body exactly as received. `secret` may be a list while you rotate; the
 * gateway sends one `v1` per valid secret during its own rotation and any match is accepted.
 * Uses Web Crypto, so it runs in Node 20+ and in browsers (asynchronous for that reason).
 */
export async function verifyWebhook<D = Record<string, unknown>>(
  payload: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent<D>> {
  if (!signatureHeader)
    throw new WebhookVerificationError(`Missing ${SIGNATURE_HEADER} header.`, { code: 'WEBHOOK_SIGNATURE_MISSING' });
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((value) => !value))
    throw new TypeError('secret must be a non-empty string (or a list of them)');
  const { timestamp, signatures } = parseHeader(signatureHeader);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now() / 1000;
  if (Math.abs(now - timestamp) > tolerance)
    throw new WebhookVerificationError(
      `Signature timestamp is outside the ${tolerance} s tolerance (replayed or clock skew).`,
      { code: 'WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE' },
    );
  const raw = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const signed = new Uint8Array([...encoder.encode(`${timestamp}.`), ...raw]);
  let matched = false;
  for (const key of secrets) {
    const expected = await hmacHex(key, signed);
    for (const candidate of signatures) matched = constantTimeEqual(expected, candidate) || matched;
  }
  if (!matched)
    throw new WebhookVerificationError('No v1 signature matches this payload and secret.', {
      code: 'WEBHOOK_SIGNATURE_MISMATCH',
    });
  try {
    const event = JSON.parse(new TextDecoder().decode(raw)) as WebhookEvent<D>;
    if (typeof event?.id !== 'string' || typeof event.type !== 'string') throw new TypeError('not an event');
    return event;
  } catch {
    throw new WebhookVerificationError('Signed payload is not a webhook event.', { code: 'WEBHOOK_PAYLOAD_INVALID' });
  }
}
