/**
 * The keys production refuses are exactly the ones the repository publishes: every key of the
 * sandbox overlay's demo secrets is refused, so a key added there cannot slip past the guard.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateRingEntry } from '../src/secrets/key-ring';
import { refusePublishedKeys } from '../src/secrets/published-keys';

/** One env file per component's Secret (gateway, worker, migrate, KEDA, the demo PostgreSQL). */
const DEMO_SECRETS = path.resolve(__dirname, '../../../k8s/overlays/sandbox/demo-secrets');
const KEY_VARIABLES = ['STARSGATE_SECRET_KEY', 'STARSGATE_SEAL_KEY', 'STARSGATE_FINGERPRINT_KEY'];

function demoSecrets(): Map<string, string> {
  const entries = readdirSync(DEMO_SECRETS)
    .filter((file) => file.endsWith('.env'))
    .flatMap((file) => readFileSync(path.join(DEMO_SECRETS, file), 'utf8').split('\n'))
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
