/**
 * Attack 11: key rotation could not finish: `rewrap()` had no caller and the README's "drop the
 * old key when the count is 0" counted wiped rows (never 0) and ignored webhook secrets. Here a
 * running stack's secrets are moved from an old (legacy symmetric) key to a new one with
 * `starsgate keys rewrap` while purchases and webhooks are live; `keys status` reaches 0 for the
 * old key, the purchases complete, webhooks stay signed, and the new key alone opens everything.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import {
  connectDatabase,
  generateRingEntry,
  parseKeyRing,
  rewrapAllSecrets,
  SecretVault,
  WebhookEndpoints,
  type DatabaseHandle,
} from '@starsgate/db';
import { startStack, type RunningStack } from '../support/running-stack';
import { adminGet, buyStars, demoWallets, json, waitForStatus } from './support/stack-client';

jest.setTimeout(300_000);

const BIN = path.resolve(__dirname, '../../apps/cli/bin/starsgate.js');
const OLD_KEY = `old:${randomBytes(32).toString('base64')}`;
const NEW_KEY = generateRingEntry('new');
/** After the operator's restart: the new key first, the old one still listed. */
const RING = `${NEW_KEY},${OLD_KEY}`;

let stack: RunningStack;
let database: DatabaseHandle;
let receiver: Server;
const received: Array<{ body: string; signature: string }> = [];

interface KeyRow {
  key_id: string;
  wallet_secrets: number;
  webhook_secrets: number;
  removable: boolean;
}

function starsgate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      BIN,
      args,
      { env: { ...process.env, DATABASE_URL: stack.database.url, STARSGATE_SECRET_KEY: RING } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function keyRows(): Promise<Map<string, KeyRow>> {
  const status = await starsgate(['keys', 'status', '--json']);
  expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 0, stderr: '' });
  return new Map((JSON.parse(status.stdout) as { keys: KeyRow[] }).keys.map((row) => [row.key_id, row]));
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['starsgate-signature'] ?? '') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  stack = await startStack({ STARSGATE_SECRET_KEY: RING, POLL_INTERVAL_MS: '300', WEBHOOK_DRAIN_INTERVAL_MS: '200' });
  database = connectDatabase(stack.database.url, { max: 2 });
});
afterAll(async () => {
  await database?.close();
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

test('keys rewrap moves every live wallet and webhook secret to the new key while the stack runs', async () => {
  const { port } = receiver.address() as { port: number };
  const endpoint = await json<{ id: string; secret: string }>(`${stack.adminUrl}/admin/api/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, events: ['purchase.completed'] }),
  });
  const wallets = await demoWallets(stack);
  const ids = await Promise.all(
    ['bip39-0', 'bip39-1', 'ton24-v4r2'].map((walletId, index) =>
      buyStars(
        stack,
        wallets.find((wallet) => wallet.id === walletId)!,
        ['@alice', '@bob', '@carol'][index]!,
        randomUUID(),
      ),
    ),
  );

  // Rows as the deployment before the change stored them: wrapped to the old symmetric key.
  await rewrapAllSecrets(database.db, new SecretVault(parseKeyRing(`${OLD_KEY},${NEW_KEY}`)));
  const before = await keyRows();
  expect(before.get('old')).toMatchObject({ webhook_secrets: 1, removable: false });

  const rewrap = await starsgate(['keys', 'rewrap', '--json']);
  expect({ code: rewrap.code, stderr: rewrap.stderr }).toEqual({ code: 0, stderr: '' });
  const after = await keyRows();
  expect(after.get('old')).toMatchObject({ wallet_secrets: 0, webhook_secrets: 0, removable: true });
  expect(after.get('new')!.webhook_secrets).toBe(1);

  // The new key alone opens what is still live: the old one can go.
  const newOnly = new SecretVault(parseKeyRing(NEW_KEY));
  expect(await new WebhookEndpoints(database.db, newOnly).signingSecrets(endpoint.id)).toEqual([endpoint.secret]);
  const live = await database.pool.query<{
    purchase_id: string;
    key_id: string;
    wrapped_key: Buffer;
    ciphertext: Buffer;
  }>('SELECT purchase_id, key_id, wrapped_key, ciphertext FROM wallet_secrets WHERE wrapped_key IS NOT NULL');
  for (const row of live.rows) {
    newOnly
      .open(row.purchase_id, { keyId: row.key_id, wrappedKey: row.wrapped_key, ciphertext: row.ciphertext })
      .fill(0);
  }

  // The worker signs and the webhooks keep arriving signed with the endpoint's secret.
  for (const id of ids) await waitForStatus(stack, id, 'completed');
  const deadline = Date.now() + 60_000;
  while (received.length < ids.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250));
  expect(received).toHaveLength(ids.length);
  for (const delivery of received) {
    const timestamp = /t=(\d+)/.exec(delivery.signature)![1]!;
    const expected = createHmac('sha256', endpoint.secret).update(`${timestamp}.${delivery.body}`).digest('hex');
    expect(delivery.signature).toContain(`v1=${expected}`);
  }
  const statuses = await adminGet<{ data: Array<{ state: string }> }>(
    stack,
    `/admin/api/webhook-deliveries?endpoint_id=${endpoint.id}`,
  );
  expect(statuses.data.map((row) => row.state)).toEqual(ids.map(() => 'delivered'));
});
