import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyWebhook, WebhookVerificationError } from '../src/index';

interface Vectors {
  body: string;
  timestamp: number;
  secret: string;
  old_secret: string;
  header: string;
  rotation_header: string;
  v1_current: string;
  v1_previous: string;
}
const VECTORS = JSON.parse(readFileSync(path.join(__dirname, 'fixtures/webhook-vectors.json'), 'utf8')) as Vectors;
const BODY = VECTORS.body;
const T = VECTORS.timestamp;

describe('verifyWebhook', () => {
  it('accepts a valid delivery (string or bytes) and returns its event', async () => {
    const event = await verifyWebhook(BODY, VECTORS.header, VECTORS.secret, { now: T + 10 });
    expect(event).toMatchObject({ id: 'evt_01', type: 'purchase.completed', sequence: 7 });
    await expect(
      verifyWebhook(new TextEncoder().encode(BODY), VECTORS.header, VECTORS.secret, { now: T }),
    ).resolves.toMatchObject({
      id: 'evt_01',
    });
  });

  it('the shared vectors are the scheme: hex HMAC-SHA256(secret, "<t>.<raw body>")', () => {
    expect(createHmac('sha256', VECTORS.secret).update(`${T}.${BODY}`).digest('hex')).toBe(VECTORS.v1_current);
  });

  it('accepts any matching v1 during rotation, and a receiver list of secrets', async () => {
    await expect(verifyWebhook(BODY, VECTORS.rotation_header, VECTORS.secret, { now: T })).resolves.toBeTruthy();
    await expect(verifyWebhook(BODY, VECTORS.rotation_header, VECTORS.old_secret, { now: T })).resolves.toBeTruthy();
    await expect(
      verifyWebhook(BODY, `t=${T},v1=${VECTORS.v1_previous}`, [VECTORS.secret, VECTORS.old_secret], { now: T }),
    ).resolves.toBeTruthy();
  });

  it.each([
    ['wrong secret', BODY, VECTORS.header, 'wrong', T, 'WEBHOOK_SIGNATURE_MISMATCH'],
    [
      'tampered body',
      BODY.replace('completed', 'failed'),
      VECTORS.header,
      VECTORS.secret,
      T,
      'WEBHOOK_SIGNATURE_MISMATCH',
    ],
    ['too old', BODY, VECTORS.header, VECTORS.secret, T + 301, 'WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE'],
    ['from the future', BODY, VECTORS.header, VECTORS.secret, T - 301, 'WEBHOOK_TIMESTAMP_OUTSIDE_TOLERANCE'],
    ['other timestamp', BODY, `t=${T + 1},v1=${VECTORS.v1_current}`, VECTORS.secret, T, 'WEBHOOK_SIGNATURE_MISMATCH'],
    ['no t', BODY, `v1=${VECTORS.v1_current}`, VECTORS.secret, T, 'WEBHOOK_SIGNATURE_MALFORMED'],
    ['not hex', BODY, `t=${T},v1=zz`, VECTORS.secret, T, 'WEBHOOK_SIGNATURE_MALFORMED'],
    ['missing', BODY, '', VECTORS.secret, T, 'WEBHOOK_SIGNATURE_MISSING'],
  ])('refuses: %s', async (_name, body, header, secret, now, code) => {
    const error = await verifyWebhook(body, header, secret, { now }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).code).toBe(code);
  });

  it('the tolerance is configurable', async () => {
    await expect(
      verifyWebhook(BODY, VECTORS.header, VECTORS.secret, { now: T + 1000, toleranceSeconds: 1000 }),
    ).resolves.toBeTruthy();
  });
});
