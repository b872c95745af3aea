/**
 * The keys production refuses are exactly the ones the repository publishes: every key of the
 * sandbox overlay's demo secrets is refused, so a key added there cannot slip past the guard.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateRingEntry } from '../src/secrets/key-ring';
import { refusePublishedKeys } from '../src/secrets/published-keys';

const DEMO_SECRETS = path.resolve(__dirname, '../../../k8s/overlays/sandbox/demo-secrets.env');
const KEY_VARIABLES = ['STARSGATE_SECRET_KEY', 'STARSGATE_SEAL_KEY', 'STARSGATE_FINGERPRINT_KEY'];

function demoSecrets(): Map<string, string> {
  const entries = readFileSync(DEMO_SECRETS, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#') && line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return new Map(entries);
}

describe('published sandbox keys', () => {
  test.each(KEY_VARIABLES)('every key of %s in the demo secrets is refused, one by one', (variable) => {
    const value = demoSecrets().get(variable);
    expect(value).toBeTruthy();
    for (const entry of value!.split(',')) expect(() => refusePublishedKeys(variable, entry)).toThrow(/published/);
  });

  test('a freshly generated key passes', () => {
    expect(() => refusePublishedKeys('STARSGATE_SECRET_KEY', generateRingEntry('k9'))).not.toThrow();
  });
});
