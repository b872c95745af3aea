import { finishConfig, integer, port, readEnvironment, string } from '@starsgate/config';
import { parseFaultConfig, type ChainFaultConfig } from './chain/chain-faults';
import type { FragmentConfigPatch } from './fragment';

/** Every variable the sandbox reads. Add one here (and use it below); `npm run config:docs` documents it. */
export const SANDBOX_VARIABLES = {
  SANDBOX_PORT: port({ default: 8090, description: 'Port of the sandbox (toncenter API, Fragment simulator, /demo).' }),
  SANDBOX_HOST: string({ default: '127.0.0.1', description: 'Address the sandbox listens on.' }),
  SANDBOX_DATA_DIR: string({
    default: '.data/sandbox',
    description:
      'State folder: the chain (balances, transactions) and the Fragment simulator\'s orders and account histories survive restarts together; "memory" keeps nothing.',
  }),
  SANDBOX_BLOCK_MS: integer({
    default: 400,
    minimum: 1,
    maximum: 60_000,
    description: 'Emulated block interval: transactions become visible at the next block.',
  }),
  SANDBOX_SEED: string({
    default: 'starsgate-demo',
    description: 'Demo wallets, receiving addresses and login cookies are derived from this value.',
  }),
  SANDBOX_FAULTS: string({
    description:
      'Chain faults at start, JSON: {"dropExternals":{"rate":0.1},"inclusionDelayMs":2000,"http5xx":{"next":3}} (chain-faults.ts).',
  }),
  SANDBOX_PRICE_DRIFT: string({
    default: 'on',
    enum: ['on', 'off'],
    description: 'Slow drift of the Fragment simulator\'s TON rate; "off" holds prices still.',
  }),
  SANDBOX_TX_INDEX_PER_ACCOUNT: integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    defaultText: '1000',
    description:
      "Transactions kept per account for the toncenter history API; the chaos run raises it to read every payment into Fragment's receivers back.",
  }),
  SANDBOX_FRAGMENT_CONFIG: string({
    description:
      'Fragment simulator config at start, JSON patch as PUT /admin/fragment/config takes (latency, faults …).',
  }),
} as const;

export interface SandboxProcessConfig {
  port: number;
  host: string;
  /** null: in memory. */
  dataDir: string | null;
  blockMs: number;
  seed: string;
  faults: ChainFaultConfig;
  priceDrift: boolean;
  transactionsPerAccount: number | undefined;
  fragmentPatch: FragmentConfigPatch;
}

function json(name: string, value: string | undefined, problems: string[]): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    problems.push(`${name} must be JSON`);
    return undefined;
  }
}

export function loadSandboxConfig(env: NodeJS.ProcessEnv = process.env): SandboxProcessConfig {
  const { values, problems } = readEnvironment(SANDBOX_VARIABLES, env);
  let faults: ChainFaultConfig = {};
  try {
    faults = parseFaultConfig(json('SANDBOX_FAULTS', values.SANDBOX_FAULTS, problems));
  } catch (error) {
    problems.push(`SANDBOX_FAULTS: ${(error as Error).message}`);
  }
  const fragmentPatch = json('SANDBOX_FRAGMENT_CONFIG', values.SANDBOX_FRAGMENT_CONFIG, problems);
  if (fragmentPatch !== undefined && (typeof fragmentPatch !== 'object' || fragmentPatch === null))
    problems.push('SANDBOX_FRAGMENT_CONFIG must be a JSON object');
  finishConfig(problems);
  return {
    port: values.SANDBOX_PORT,
    host: values.SANDBOX_HOST,
    dataDir: values.SANDBOX_DATA_DIR === 'memory' ? null : values.SANDBOX_DATA_DIR,
    blockMs: values.SANDBOX_BLOCK_MS,
    seed: values.SANDBOX_SEED,
    faults,
    priceDrift: values.SANDBOX_PRICE_DRIFT === 'on',
    transactionsPerAccount: values.SANDBOX_TX_INDEX_PER_ACCOUNT,
    fragmentPatch: fragmentPatch ?? {},
  };
}
