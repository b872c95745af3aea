import path from 'node:path';
import { loadEnvFile } from '@starsgate/config';
import { mountProcessMetrics } from './process-metrics';
import { startSandbox } from './server';
import { DEFAULT_INDEX_LIMITS } from './chain/transaction-index';
import { demoFragmentCookies } from './fragment';
import { loadSandboxConfig } from './sandbox-config';

/** Sandbox process entry; its variables are declared in sandbox-config.ts. */
async function main(): Promise<void> {
  loadEnvFile(path.resolve('.env'));
  const config = loadSandboxConfig();
  const perAccount = config.transactionsPerAccount;
  const sandbox = await startSandbox({
    port: config.port,
    host: config.host,
    blockMs: config.blockMs,
    dataDir: config.dataDir,
    seed: config.seed,
    faults: config.faults,
    ...(perAccount !== undefined
      ? { indexLimits: { perAccount, total: Math.max(DEFAULT_INDEX_LIMITS.total, perAccount * 4) } }
      : {}),
    // Prices move slowly, as on Fragment (±0.3 % of the TON rate per minute at most), so the
    // worker's "Price was changed" path is exercised by the running demo too.
    fragment: {
      drift: { enabled: config.priceDrift, intervalMs: 60_000, maxStepPpm: 3_000 },
      ...config.fragmentPatch,
    },
  });
  mountProcessMetrics(sandbox.app);
  const seed = config.seed;

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
