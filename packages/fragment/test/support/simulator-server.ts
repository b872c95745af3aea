/**
 * The sandbox server (apps/sandbox `startSandbox`) on a free local port: a real LocalChain and the
 * real Fragment simulator mounted at /fragment, exactly as deployed. The client under test
 * reaches it only through its base URL.
 */
import type { LocalChain } from '@starsgate/sandbox';
import { startSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies, type FragmentConfigPatch, type FragmentSimulator } from '@starsgate/sandbox/fragment';

export const SEED = 'fragment-client-test';

/** No latency, quick delivery; individual tests add faults. */
export const FAST: FragmentConfigPatch = {
  latency: { minMs: 0, maxMs: 0 },
  processingDelay: { minMs: 50, maxMs: 50 },
  doneDelay: { minMs: 150, maxMs: 150 },
  hangMs: 5_000,
};

export interface SimulatorServer {
  baseUrl: string;
  chain: LocalChain;
  sim: FragmentSimulator;
  /** Demo login cookies with a fresh `stel_ssid`, so clients do not share Fragment page state. */
  freshCookies(): string;
  close(): Promise<void>;
}

let sessionCounter = 0;

export async function startSimulator(config: FragmentConfigPatch = {}): Promise<SimulatorServer> {
  const sandbox = await startSandbox({
    port: 0,
    seed: SEED,
    blockMs: 50,
    demoWallets: false,
    fragment: { ...FAST, ...config },
  });
  if (!sandbox.fragment) {
    await sandbox.close();
    throw new Error('sandbox started without the Fragment simulator');
  }
  return {
    baseUrl: `${sandbox.url}/fragment`,
    chain: sandbox.chain,
    sim: sandbox.fragment,
    freshCookies: () => {
      const ssid = `${(++sessionCounter).toString(16).padStart(18, 'c')}_${String(Date.now()).padStart(19, '0')}`;
      return demoFragmentCookies(SEED).replace(/stel_ssid=[^;]+/, `stel_ssid=${ssid}`);
    },
    close: () => sandbox.close(),
  };
}
