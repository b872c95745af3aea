/**
 * `npm start`: the whole product on one machine. Starts the offline sandbox (local chain with
 * funded demo wallets + Fragment simulator) unless real upstreams are configured, then the
 * gateway and the worker pointed at it. Ctrl-C stops all three.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { developmentKeyRingFile, parseKeyRing, sealKeyOf } from '@starsgate/db';
import { loadEnvFile } from '@starsgate/config';
import { waitForHttp } from '@starsgate/platform/testing';
import { SANDBOX_ENV_FILE, writeSandboxEnvFile } from './stack/sandbox-env-file';

const root = path.resolve(__dirname, '..');
// Before anything reads the environment: `.env` when present (what is already set wins).
loadEnvFile(path.join(root, '.env'));
const useSandbox = !process.env.FRAGMENT_BASE_URL && !process.env.TONCENTER_URL;
const sandboxPort = process.env.SANDBOX_PORT ?? '8090';
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const children: ChildProcess[] = [];
const dataDir = (): string => path.resolve(root, process.env.STARSGATE_DATA_DIR ?? '.data');

function run(name: string, entry: string, env: NodeJS.ProcessEnv, withheld: readonly string[] = []): ChildProcess {
  const childEnv = { ...process.env, ...env };
  for (const variable of withheld) delete childEnv[variable];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    process.stderr.write(`[start] ${name} exited (${signal ?? code})\n`);
    if (!stopping) stop(code ?? 1);
  });
  children.push(child);
  return child;
}

/**
 * The operator API's token under `npm start`: STARSGATE_ADMIN_TOKENS when set, otherwise a
 * development token generated once into $STARSGATE_DATA_DIR/admin-token (mode 0600).
 */
function adminTokens(): { tokens: string; generatedAt?: string } {
  if (process.env.STARSGATE_ADMIN_TOKENS) return { tokens: process.env.STARSGATE_ADMIN_TOKENS };
  const file = path.join(dataDir(), 'admin-token');
  if (!existsSync(file)) {
    mkdirSync(dataDir(), { recursive: true });
    writeFileSync(file, `sg_dev_${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  }
  return { tokens: readFileSync(file, 'utf8').trim(), generatedAt: file };
}

/**
 * The keys each service gets: the worker the ring that opens secrets (STARSGATE_SECRET_KEY, or the
 * development ring in $STARSGATE_DATA_DIR/secret-key), the gateway only its public half, as in
 * production (docs/security.md). A ring whose first key is a legacy symmetric one has no
 * public half: the gateway then keeps STARSGATE_SECRET_KEY (development tolerates it, with a warning).
 */
function serviceKeys(): { worker: NodeJS.ProcessEnv; gateway: NodeJS.ProcessEnv; withheldFromGateway: string[] } {
  const ringValue = process.env.STARSGATE_SECRET_KEY || readFileSync(developmentKeyRingFile(dataDir()), 'utf8').trim();
  const ring = parseKeyRing(ringValue);
  if (ring.keys.get(ring.primaryId)!.kind !== 'x25519') return { worker: {}, gateway: {}, withheldFromGateway: [] };
  return {
    worker: { STARSGATE_SECRET_KEY: ringValue },
    gateway: { STARSGATE_SEAL_KEY: process.env.STARSGATE_SEAL_KEY || sealKeyOf(ring) },
    withheldFromGateway: ['STARSGATE_SECRET_KEY'],
  };
}

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5_000).unref();
  Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve))),
    ),
  ).then(
    () => process.exit(code),
    () => process.exit(1),
  );
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function main(): Promise<void> {
  const upstream: NodeJS.ProcessEnv = {};
  if (useSandbox) {
    run('sandbox', 'apps/sandbox/src/main.ts', { SANDBOX_PORT: sandboxPort });
    const demo = (await (await waitForHttp(`${sandboxUrl}/demo`, { timeoutMs: 120_000 })).json()) as {
      usdt?: { master?: string };
      fragment?: { cookies?: string; receivingAddresses?: Record<string, string> };
      fragment_linked_wallet?: { address?: string; mode?: string } | null;
    };
    upstream.TONCENTER_URL = `${sandboxUrl}/toncenter`;
    // The sandbox's toncenter has no request limit (docs/ton.md §9).
    upstream.TONCENTER_RPS = process.env.TONCENTER_RPS ?? '0';
    // The sandbox's /demo/checkout page calls the gateway from the sandbox's origin.
    upstream.CORS_ALLOWED_ORIGINS ??= `${sandboxUrl},http://localhost:${sandboxPort}`;
    upstream.FRAGMENT_BASE_URL = `${sandboxUrl}/fragment`;
    if (demo.usdt?.master) upstream.USDT_MASTER_ADDRESS = demo.usdt.master;
    if (demo.fragment?.cookies) upstream.FRAGMENT_COOKIES = demo.fragment.cookies;
    if (demo.fragment?.receivingAddresses)
      upstream.FRAGMENT_RECEIVING_ADDRESSES = Object.values(demo.fragment.receivingAddresses).join(',');
    process.stdout.write(`[start] sandbox up at ${sandboxUrl} — demo wallets and usernames: ${sandboxUrl}/demo\n`);
    // The simulator's default (linked) mode: Fragment names the wallet linked to its account as
    // transaction.from, and the worker pays from the purchase's own wallet (docs/fragment-protocol.md §17).
    if (demo.fragment_linked_wallet?.address)
      process.stdout.write(
        `[start] Fragment's linked wallet ${demo.fragment_linked_wallet.address} (transaction.from, ${demo.fragment_linked_wallet.mode ?? 'linked'} mode)\n`,
      );
    process.stdout.write(
      `[start] demo shop (client-signed checkout): ${sandboxUrl}/demo/checkout?gateway=http://127.0.0.1:${process.env.PORT ?? '8080'}\n`,
    );
  }
  const admin = adminTokens();
  // A webhook receiver on this machine keeps working; other private addresses stay refused.
  upstream.WEBHOOK_ALLOW_PRIVATE = process.env.WEBHOOK_ALLOW_PRIVATE ?? 'loopback';
  const keys = serviceKeys();
  const gatewayEnv = { ...upstream, ...keys.gateway, STARSGATE_ADMIN_TOKENS: admin.tokens };
  const workerEnv = { ...upstream, ...keys.worker };
  const envFile = path.join(dataDir(), SANDBOX_ENV_FILE);
  writeSandboxEnvFile(envFile, { ...gatewayEnv, ...workerEnv }, process.env);
  process.stdout.write(`[start] the services' environment is in ${envFile} (\`npm run doctor\` uses it)\n`);
  run('gateway', 'apps/gateway/src/main.ts', gatewayEnv, keys.withheldFromGateway);
  run('worker', 'apps/worker/src/main.ts', workerEnv);
  const publicUrl = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;
  const adminUrl = `http://127.0.0.1:${process.env.ADMIN_PORT ?? '8081'}`;
  await waitForHttp(`${publicUrl}/readyz`, { timeoutMs: 60_000 });
  process.stdout.write(`[start] gateway ready at ${publicUrl} (public API) — API docs at ${publicUrl}/docs\n`);
  process.stdout.write(
    `[start] operator listener at ${adminUrl}: dashboard ${adminUrl}/admin, metrics ${adminUrl}/metrics\n`,
  );
  if (admin.generatedAt)
    process.stdout.write(
      `[start] operator API at ${adminUrl}/admin/api — development token (from ${admin.generatedAt}): ${admin.tokens}\n` +
        `[start]   STARSGATE_URL=${adminUrl} STARSGATE_ADMIN_TOKEN=${admin.tokens} npx starsgate stats\n`,
    );
  else
    process.stdout.write(`[start] operator API at ${adminUrl}/admin/api with the tokens of STARSGATE_ADMIN_TOKENS\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  stop(1);
});
