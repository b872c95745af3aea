/**
 * Attack 10: the internet-facing gateway could decrypt every stored seed (it held the symmetric
 * key-encryption key). Now it seals to the worker's X25519 public key: nothing the gateway process
 * was given opens a stored wallet secret, while the worker still opens it to sign and completes
 * the purchase (docs/security.md).
 */
import { randomUUID } from 'node:crypto';
import { loadGatewayConfig } from '@starsgate/gateway';
import { parseKeyRing, SecretVault, type SealedSecret } from '@starsgate/db';
import { startStack, type RunningStack } from '../support/running-stack';
import { buyStars, demoWallets, processEnvironment, waitForStatus } from './support/stack-client';

jest.setTimeout(240_000);

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({ CONFIRMING_MAX_AGE_MS: '20000', POLL_INTERVAL_MS: '300' });
});
afterAll(async () => {
  await stack?.stop();
});

/** Every value of an environment that parses as a key ring (whatever its variable is called). */
function keyRingsIn(env: Record<string, string>): Array<{ variable: string; vault: SecretVault }> {
  return Object.entries(env).flatMap(([variable, value]) => {
    try {
      return [{ variable, vault: new SecretVault(parseKeyRing(value)) }];
    } catch {
      return [];
    }
  });
}

test('nothing the gateway holds opens a stored seed; the worker completes the purchase', async () => {
  const wallet = (await demoWallets(stack)).find((entry) => entry.id === 'bip39-0')!;
  const id = await buyStars(stack, wallet, '@alice', randomUUID());

  const { rows } = await stack.database.pool.query<{ key_id: string; wrapped_key: Buffer; ciphertext: Buffer }>(
    'SELECT key_id, wrapped_key, ciphertext FROM wallet_secrets WHERE purchase_id = $1',
    [id],
  );
  expect(rows).toHaveLength(1);
  const sealed: SealedSecret = {
    keyId: rows[0]!.key_id,
    wrappedKey: rows[0]!.wrapped_key,
    ciphertext: rows[0]!.ciphertext,
  };

  const gatewayEnv = processEnvironment(stack, 'gateway');
  const workerEnv = processEnvironment(stack, 'worker');
  // The gateway's configuration names the public key it seals to and no key that opens.
  expect(gatewayEnv.STARSGATE_SECRET_KEY).toBeUndefined();
  expect(loadGatewayConfig(gatewayEnv).sealKey).toMatch(/^[\w-]+:[A-Za-z0-9+/]{43}=$/);
  for (const { variable, vault } of keyRingsIn(gatewayEnv)) {
    expect({
      variable,
      opened: (() => {
        try {
          vault.open(id, sealed);
          return true;
        } catch {
          return false;
        }
      })(),
    }).toEqual({
      variable,
      opened: false,
    });
  }

  // The worker's ring does open it (the same row, so the check above is not vacuous) …
  const worker = new SecretVault(parseKeyRing(workerEnv.STARSGATE_SECRET_KEY!));
  const opened = worker.open(id, sealed);
  expect(opened.toString('utf8')).toBe(wallet.seed);
  opened.fill(0);
  // … and signs with it: the purchase completes.
  await waitForStatus(stack, id, 'completed');
});
