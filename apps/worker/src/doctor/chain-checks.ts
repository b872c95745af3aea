import { Address, Cell } from '@ton/core';
import { ToncenterChainClient } from '@starsgate/ton';
import type { WorkerConfig } from '../config';
import { errorText, fail, guarded, ok, warn, type CheckResult } from './check';

/** Global ids of config param 19. */
const GLOBAL_IDS: Record<number, 'mainnet' | 'testnet'> = { [-239]: 'mainnet', [-3]: 'testnet' };

async function v2(
  config: WorkerConfig,
  method: string,
  query = '',
): Promise<{ status: number; ms: number; body: unknown }> {
  const started = Date.now();
  const response = await fetch(`${config.toncenterUrl.replace(/\/+$/, '')}/api/v2/${method}${query}`, {
    headers: config.toncenterApiKey ? { 'X-API-Key': config.toncenterApiKey } : {},
    signal: AbortSignal.timeout(10_000),
  });
  const body: unknown = await response.json().catch(() => undefined);
  return { status: response.status, ms: Date.now() - started, body };
}

function resultOf(body: unknown): Record<string, unknown> | undefined {
  const result = (body as { result?: unknown } | undefined)?.result;
  return result && typeof result === 'object' ? (result as Record<string, unknown>) : undefined;
}

/** The chain provider: key accepted, latency, network = TON_NETWORK, rate-limit headroom. */
export function checkChainProvider(config: WorkerConfig): Promise<CheckResult[]> {
  const item = 'chain provider';
  return guarded(item, 'Check TONCENTER_URL and that the provider answers.', async () => {
    const info = await v2(config, 'getMasterchainInfo');
    if (info.status === 401 || info.status === 403)
      return [
        fail(`${item} key`, `HTTP ${info.status}`, 'TONCENTER_API_KEY is rejected: issue a key for this network.'),
      ];
    if (info.status === 429)
      return [
        fail(`${item} rate limit`, 'HTTP 429 on the first call', 'Use a TONCENTER_API_KEY with a plan above the load.'),
      ];
    if (info.status !== 200 || !resultOf(info.body))
      return [
        fail(item, `getMasterchainInfo answered HTTP ${info.status}`, 'Check TONCENTER_URL (the v2/v3 API root).'),
      ];
    const results: CheckResult[] = [
      info.ms < 1_500
        ? ok(`${item} latency`, `${info.ms} ms`)
        : warn(`${item} latency`, `${info.ms} ms`, 'A slow provider delays payment lookups; prefer a closer one.'),
    ];
    const param = await v2(config, 'getConfigParam', '?config_id=19');
    const bytes = (resultOf(param.body)?.config as { bytes?: unknown } | undefined)?.bytes;
    const globalId = typeof bytes === 'string' ? Cell.fromBase64(bytes).beginParse().loadInt(32) : undefined;
    const network = globalId !== undefined ? GLOBAL_IDS[globalId] : undefined;
    if (network === undefined) {
      results.push(
        warn(
          `${item} network`,
          'the provider did not tell its network (config param 19)',
          'Check that TONCENTER_URL serves TON_NETWORK.',
        ),
      );
    } else if (network !== config.network) {
      results.push(
        fail(
          `${item} network`,
          `the provider serves ${network} (global id ${globalId}), TON_NETWORK is ${config.network}`,
          'Point TONCENTER_URL at the network of TON_NETWORK, or fix TON_NETWORK.',
        ),
      );
    } else {
      results.push(ok(`${item} network`, `${network} (global id ${globalId}), as TON_NETWORK`));
    }
    results.push(
      config.toncenterApiKey
        ? ok(`${item} rate limit`, 'API key accepted (the plan sets the rate)')
        : warn(
            `${item} rate limit`,
            'no API key: about 1 request per second',
            'Set TONCENTER_API_KEY (toncenter free plan: 10 rps).',
          ),
    );
    return results;
  });
}

/** FRAGMENT_RECEIVING_ADDRESSES: each configured address is a real, active account on this network. */
export function checkReceivingAddresses(config: WorkerConfig): Promise<CheckResult[]> {
  const item = 'FRAGMENT_RECEIVING_ADDRESSES';
  const action =
    "List Fragment's receiving wallets of this network (docs/configuration.md); every other destination is refused.";
  if (config.fragmentReceivingAddresses.length === 0)
    return Promise.resolve([fail(item, 'empty: every payment would be refused', action)]);
  const chain = new ToncenterChainClient({
    baseUrl: config.toncenterUrl,
    ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
    maxRetries: 1,
  });
  return Promise.all(
    config.fragmentReceivingAddresses.map(async (raw) => {
      const label = `${item} ${Address.parse(raw).toString({ bounceable: false })}`;
      try {
        const state = await chain.getAccountState(Address.parse(raw));
        return state.status === 'active'
          ? ok(label, 'active')
          : fail(label, `account is ${state.status} on this network`, action);
      } catch (error) {
        return fail(label, `not readable: ${errorText(error)}`, action);
      }
    }),
  );
}
