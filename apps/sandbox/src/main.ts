import { parseFaultConfig } from './chain/chain-faults';
import { mountProcessMetrics } from './process-metrics';
import { startSandbox } from './server';
import { DEFAULT_INDEX_LIMITS } from './chain/transaction-index';
import { demoFragmentCookies, type FragmentConfigPatch } from './fragment';

/**
 * Sandbox process entry. Env: SANDBOX_PORT (8090), SANDBOX_HOST (127.0.0.1), SANDBOX_DATA_DIR
 * (.data/sandbox; "memory" = no persistence), SANDBOX_BLOCK_MS (400), SANDBOX_SEED
 * (starsgate-demo), SANDBOX_FAULTS (JSON, see chain-faults.ts), SANDBOX_PRICE_DRIFT (on; "off" holds prices),
 * SANDBOX_TX_INDEX_PER_ACCOUNT (1000: transactions kept per account for the history API; raise it
 * when a run must read every payment into Fragment's receivers back), SANDBOX_FRAGMENT_CONFIG (JSON
 * patch of the Fragment simulator's config, as PUT /admin/fragment/config takes: latency, faults …).
 */
async function main(): Promise<void> {
  const env = process.env;
  const port = env['SANDBOX_PORT'] ? Number(env['SANDBOX_PORT']) : 8090;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('SANDBOX_PORT must be a port number');
  const blockMs = env['SANDBOX_BLOCK_MS'] ? Number(env['SANDBOX_BLOCK_MS']) : 400;
  if (!(blockMs > 0)) throw new Error('SANDBOX_BLOCK_MS must be > 0');
  const dataDirEnv = env['SANDBOX_DATA_DIR'] ?? '.data/sandbox';
  const faults = env['SANDBOX_FAULTS'] ? parseFaultConfig(JSON.parse(env['SANDBOX_FAULTS'])) : {};
  const perAccount = env['SANDBOX_TX_INDEX_PER_ACCOUNT'] ? Number(env['SANDBOX_TX_INDEX_PER_ACCOUNT']) : undefined;
  if (perAccount !== undefined && !(Number.isSafeInteger(perAccount) && perAccount > 0))
    throw new Error('SANDBOX_TX_INDEX_PER_ACCOUNT must be a positive integer');
  const fragmentPatch = env['SANDBOX_FRAGMENT_CONFIG']
    ? (JSON.parse(env['SANDBOX_FRAGMENT_CONFIG']) as FragmentConfigPatch)
    : {};

  const sandbox = await startSandbox({
    port,
    host: env['SANDBOX_HOST'] ?? '127.0.0.1',
    blockMs,
    dataDir: dataDirEnv === 'memory' ? null : dataDirEnv,
    seed: env['SANDBOX_SEED'] ?? 'starsgate-demo',
    faults,
    ...(perAccount !== undefined
      ? { indexLimits: { perAccount, total: Math.max(DEFAULT_INDEX_LIMITS.total, perAccount * 4) } }
      : {}),
    // Prices move slowly, as on Fragment (±0.3 % of the TON rate per minute at most), so the
    // worker's "Price was changed" path is exercised by the running demo too.
    fragment: {
      drift: { enabled: env['SANDBOX_PRICE_DRIFT'] !== 'off', intervalMs: 60_000, maxStepPpm: 3_000 },
      ...fragmentPatch,
    },
  });
  mountProcessMetrics(sandbox.app);
  const seed = env['SANDBOX_SEED'] ?? 'starsgate-demo';

  const lines = [
    `starsgate sandbox listening on ${sandbox.url}`,
    `  toncenter: ${sandbox.url}/toncenter/api/v2 | /api/v3   fragment: ${sandbox.url}/fragment   demo: ${sandbox.url}/demo`,
    `  USDT stand-in master: ${sandbox.chain.usdtMaster.toString()}   block: ${sandbox.chain.blockMs} ms   data: ${sandbox.chain.dataDir ?? '(memory)'}`,
    // The simulator's demo login: what the gateway and the worker need to talk to it (sandbox only).
    `  for the gateway and worker: FRAGMENT_BASE_URL=${sandbox.url}/fragment FRAGMENT_COOKIES='${demoFragmentCookies(seed)}'`,
    ...(sandbox.fragment
      ? [
          `  Fragment's linked wallet (transaction.from in the ${sandbox.fragment.config().faults.transactionFrom} mode, docs/fragment-protocol.md §17): ${sandbox.fragment.linkedWallet.address.toString({ bounceable: false })}`,
        ]
      : []),
    '  demo wallets (sandbox only, never use on mainnet):',
    ...sandbox.demoWallets.map(
      (w) =>
        `   - ${w.id} [${w.format}${w.format === 'bip39_12' ? ` #${w.accountIndex}` : ''}, ${w.version}] ${w.address}\n       seed: ${w.seed}\n       ${w.funding.gram} GRAM, ${w.funding.usdt} USDT — ${w.description}`,
    ),
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[sandbox] ${signal}: saving state and stopping`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('[sandbox] shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('[sandbox] failed to start', err);
  process.exit(1);
});
