/**
 * Runs the sandbox's real Fragment simulator (apps/sandbox/src/fragment) on a local HTTP port,
 * mounted at /fragment as in the sandbox server, over a real LocalChain. The client under test
 * reaches it only through its base URL.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { LocalChain } from '../../../../apps/sandbox/src';
import {
  createFragmentSimulator,
  demoFragmentCookies,
  type FragmentConfigPatch,
  type FragmentSimulator,
} from '../../../../apps/sandbox/src/fragment';

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
  const chain = await LocalChain.create({ dataDir: null, blockMs: 50 });
  const sim = createFragmentSimulator({ chain, seed: SEED, config: { ...FAST, ...config } });
  const app = express();
  app.use('/fragment', sim.router);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/fragment`,
    chain,
    sim,
    freshCookies: () => {
      const ssid = `${(++sessionCounter).toString(16).padStart(18, 'c')}_${String(Date.now()).padStart(19, '0')}`;
      return demoFragmentCookies(SEED).replace(/stel_ssid=[^;]+/, `stel_ssid=${ssid}`);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sim.close();
      await chain.close();
    },
  };
}
