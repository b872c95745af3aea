/**
 * The webhook signature scheme, and the operations guide's verification samples (docs/operations.md) run against it: the
 * TypeScript one (the same function ships in this package) and the Python one (run by python3).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyWebhookSignature, webhookSignatureHeader, webhookSignatureV1 } from '../src';

const body = JSON.stringify({ id: 'evt', type: 'purchase.completed', sequence: 7, data: { username: '@ünï' } });
const now = Math.floor(Date.now() / 1000);

test('t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, one v1 per secret', () => {
  const header = webhookSignatureHeader(['whsec_new', 'whsec_old'], now, body);
  expect(header).toBe(
    `t=${now},v1=${webhookSignatureV1('whsec_new', now, body)},v1=${webhookSignatureV1('whsec_old', now, body)}`,
  );
  expect(verifyWebhookSignature(header, body, 'whsec_new', now)).toBe(true);
  expect(verifyWebhookSignature(header, body, 'whsec_old', now)).toBe(true);
  expect(verifyWebhookSignature(header, body, 'whsec_other', now)).toBe(false);
  expect(verifyWebhookSignature(header, `${body} `, 'whsec_new', now)).toBe(false);
  expect(verifyWebhookSignature(header, body, 'whsec_new', now + 301)).toBe(false);
  expect(verifyWebhookSignature('v1=zz,t=x', body, 'whsec_new', now)).toBe(false);
});

test("the operations guide's Python sample verifies the same signatures", () => {
  const readme = readFileSync(path.resolve(__dirname, '../../../docs/operations.md'), 'utf8');
  const sample = /```python\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(sample).toContain('def verify_starsgate_signature');
  const header = webhookSignatureHeader(['whsec_new', 'whsec_old'], now, body);
  const script = `${sample}
import json, sys
case = json.load(sys.stdin)
raw = case["body"].encode()
print(json.dumps([verify_starsgate_signature(case["header"], raw, s) for s in ["whsec_new", "whsec_old", "whsec_other"]]
                 + [verify_starsgate_signature(case["header"], raw + b" ", "whsec_new")]))`;
  const output = execFileSync('python3', ['-c', script], { input: JSON.stringify({ header, body }) }).toString();
  expect(JSON.parse(output)).toEqual([true, true, false, false]);
});
