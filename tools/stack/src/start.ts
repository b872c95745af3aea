/**
 * `npm start`: the whole product on one machine. Starts the offline sandbox (local chain with
 * funded demo wallets + Fragment simulator) unless real upstreams are configured, then the
 * gateway and the worker pointed at it. Ctrl-C stops all three.
 *
 * The services run from their sources through tsx; `npm start -- --from=build` runs their bundles
 * instead (built first when stale), with the same development settings: less CPU and memory per
 * process, which is how the test suites that hold `npm start` to its promises run it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { developmentKeyRingFile } from '@starsgate/db';
import { loadEnvFile } from '@starsgate/config';
import { SANDBOX_ENV_FILE, writeSandboxEnvFile } from './sandbox-env-file';
import { parseStartArguments, START_USAGE, type StartArguments } from './start-arguments';
import { serviceKeys } from './service-keys';
import { startStack, type Stack } from './stack';

const root = path.resolve(__dirname, '../../..');
// Before anything reads the environment: `.env` when present (what is already set wins).
loadEnvFile(path.join(root, '.env'));
let from: StartArguments['from'];
try {
  ({ from } = parseStartArguments(process.argv.slice(2)));
} catch (error) {
  console.error(`${(error as Error).message}\n${START_USAGE}`);
  process.exit(2);
}
const useSandbox = !process.env.FRAGMENT_BASE_URL && !process.env.TONCENTER_URL;
const sandboxPort = process.env.SANDBOX_PORT ?? '8090';
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
const dataDir = (): string => path.resolve(root, process.env.STARSGATE_DATA_DIR ?? '.data');
// The services' own defaults (apps/gateway/src/config.ts, apps/worker/src/config.ts), to know where they answer.
const port = process.env.PORT ?? '8080';
const adminPort = process.env.ADMIN_PORT ?? '8081';
const workerMetricsPort = process.env.WORKER_METRICS_PORT ?? '9464';

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

/** The worker's ring: STARSGATE_SECRET_KEY, or the development ring in $STARSGATE_DATA_DIR/secret-key. */
function keyRing(): string {
  return process.env.STARSGATE_SECRET_KEY || readFileSync(developmentKeyRingFile(dataDir()), 'utf8').trim();
}

let stack: Stack | undefined;
let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(code), 5_000).unref();
  (stack?.stop() ?? Promise.resolve()).then(
    () => process.exit(code),
    () => process.exit(1),
  );
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function main(): Promise<void> {
  const admin = adminTokens();
  const keys = serviceKeys(keyRing(), process.env.STARSGATE_SEAL_KEY);
  stack = await startStack({
    from,
    profile: 'development',
    // The services read the rest of their configuration (DATABASE_URL, REDIS_URL …) from here.
    baseEnv: process.env,
    sandbox: useSandbox,
    gateways: 1,
    workers: 1,
    proxy: false,
    bullmqPrefix: null,
    ports: {
      sandbox: Number(sandboxPort),
      gateway: Number(port),
      admin: Number(adminPort),
      workerMetrics: Number(workerMetricsPort),
    },
    keys,
    adminToken: admin.tokens,
    serviceEnv: {
      ...(useSandbox
        ? {
            // The sandbox's toncenter has no request limit (docs/ton.md §9).
            TONCENTER_RPS: process.env.TONCENTER_RPS ?? '0',
            // The sandbox's /demo/checkout page calls the gateway from the sandbox's origin.
            CORS_ALLOWED_ORIGINS: process.env.CORS_ALLOWED_ORIGINS ?? `${sandboxUrl},http://localhost:${sandboxPort}`,
            // …and proves its in-page wallet with a ton_proof for the page's own host name.
            TON_PROOF_DOMAINS: process.env.TON_PROOF_DOMAINS ?? `${new URL(sandboxUrl).hostname},localhost`,
          }
        : {}),
      // A webhook receiver on this machine keeps working; other private addresses stay refused.
      WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? 'loopback',
    },
    // Where they listen is the operator's choice (HOST, WORKER_METRICS_HOST), as in production.
    gatewayEnv: { HOST: process.env.HOST ?? '0.0.0.0' },
    workerEnv: { WORKER_METRICS_HOST: process.env.WORKER_METRICS_HOST ?? '0.0.0.0' },
    onUnexpectedExit: (child, code) => {
      process.stderr.write(`[start] ${child.name} exited (${code})\n`);
      stop(code ?? 1);
    },
  });
  if (useSandbox) {
    process.stdout.write(`[start] sandbox up at ${sandboxUrl} — demo wallets and usernames: ${sandboxUrl}/demo\n`);
    // The simulator's default (linked) mode: Fragment names the wallet linked to its account as
    // transaction.from, and the worker pays from the purchase's own wallet (docs/fragment-protocol.md §17).
    const linked = (stack.demo as { fragment_linked_wallet?: { address?: string; mode?: string } | null })
      .fragment_linked_wallet;
    if (linked?.address)
      process.stdout.write(
        `[start] Fragment's linked wallet ${linked.address} (transaction.from, ${linked.mode ?? 'linked'} mode)\n`,
      );
    process.stdout.write(
      `[start] demo shop (client-signed checkout): ${sandboxUrl}/demo/checkout?gateway=http://127.0.0.1:${port}\n`,
    );
  }
  const envFile = path.join(dataDir(), SANDBOX_ENV_FILE);
  writeSandboxEnvFile(envFile, { ...stack.serviceEnv, ...keys.gateway, ...keys.worker }, process.env);
  process.stdout.write(`[start] the services' environment is in ${envFile} (\`npm run doctor\` uses it)\n`);
  const publicUrl = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
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
