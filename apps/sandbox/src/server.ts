import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createFaultsRouter } from './admin/faults-router';
import type { ChainFaultConfig } from './chain/chain-faults';
import { LocalChain } from './chain/local-chain';
import type { TransactionIndexLimits } from './chain/transaction-index';
import { createCheckoutPageRouter } from './demo/checkout-page-router';
import { createDemoRouter } from './demo/demo-router';
import { DEMO_NETWORK, seedDemoWallets, type DemoWallet } from './demo/demo-wallets';
import { activateFragmentReceivers } from './demo/fragment-receivers';
import { createFaucetRouter } from './demo/faucet-router';
import {
  createFragmentSimulator,
  defaultDirectory,
  demoFragmentCookies,
  type FragmentSimulator,
  type FragmentSimulatorOptions,
} from './fragment';
import { loadFragmentState } from './fragment/order-persistence';
import { createToncenterRouter } from './toncenter';

export const DEFAULT_SANDBOX_SEED = 'starsgate-demo';

export interface SandboxOptions {
  /** Seed value for demo wallets and the Fragment simulator (SANDBOX_SEED). Default 'starsgate-demo'. */
  seed?: string;
  /** State folder; `null` (the default here) keeps the chain in memory. main.ts defaults to `.data/sandbox`. */
  dataDir?: string | null;
  /** Emulated block interval, ms. Default 400. */
  blockMs?: number;
  saveIntervalMs?: number;
  faults?: ChainFaultConfig;
  indexLimits?: TransactionIndexLimits;
  /** Fund/deploy the demo wallets on a fresh chain. Default true. */
  demoWallets?: boolean;
  /** Fragment simulator config, or `false` to leave /fragment unmounted. */
  fragment?: FragmentSimulatorOptions['config'] | false;
}

export interface Sandbox {
  app: express.Express;
  chain: LocalChain;
  fragment?: FragmentSimulator;
  demoWallets: DemoWallet[];
  close(): Promise<void>;
}

/**
 * Builds the offline upstream in-process: local chain, toncenter API (/toncenter), demo (/demo),
 * faucet (/faucet), chain fault admin (/admin/faults) and the Fragment simulator (/fragment,
 * admin at /admin/fragment).
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? DEFAULT_SANDBOX_SEED;
  const chain = await LocalChain.create({
    dataDir: options.dataDir ?? null,
    ...(options.blockMs !== undefined ? { blockMs: options.blockMs } : {}),
    ...(options.saveIntervalMs !== undefined ? { saveIntervalMs: options.saveIntervalMs } : {}),
    ...(options.indexLimits ? { indexLimits: options.indexLimits } : {}),
  });
  try {
    const demoWallets = options.demoWallets === false ? [] : await seedDemoWallets(chain, seed);
    // The simulator's orders and histories are kept beside the chain's state: a restart keeps both worlds.
    const dataDir = options.dataDir ?? null;
    const fragment =
      options.fragment === false
        ? undefined
        : createFragmentSimulator({
            chain,
            seed,
            ...(options.fragment ? { config: options.fragment } : {}),
            ...(dataDir
              ? {
                  persisted: {
                    dataDir,
                    saved: await loadFragmentState(dataDir),
                    ...(options.saveIntervalMs !== undefined ? { saveIntervalMs: options.saveIntervalMs } : {}),
                  },
                }
              : {}),
          });
    if (fragment) await activateFragmentReceivers(chain, fragment.ownReceiverWallets());
    const linked = fragment?.linkedWallet;
    if (linked?.contract && linked.secretKey)
      await activateFragmentReceivers(chain, [{ contract: linked.contract, secretKey: linked.secretKey }], {
        gram: 10_000_000_000n,
        usdt: 100_000_000n,
      });
    // The faults stand for a flaky network between clients and the chain: they start once the
    // sandbox's own setup is done (a dropped deployment of a demo wallet failed a chaos start).
    if (options.faults) chain.faults.set(options.faults);

    const app = express();
    app.disable('x-powered-by');
    // No client of the sandbox revalidates; hashing every body for an ETag only costs CPU.
    app.set('etag', false);
    app.use('/toncenter', createToncenterRouter(chain));
    app.use('/faucet', createFaucetRouter(chain));
    app.use('/admin', createFaultsRouter(chain));
    if (fragment) {
      app.use('/admin/fragment', fragment.admin);
      app.use('/fragment', fragment.router);
    }
    app.use('/demo/checkout', createCheckoutPageRouter());
    app.use(
      '/demo',
      createDemoRouter(chain, () => ({
        seedValue: seed,
        network: DEMO_NETWORK,
        wallets: demoWallets,
        usernames: (fragment ? fragment.directory.list() : defaultDirectory()).map((e) => ({
          username: `@${e.username}`,
          kind: e.kind,
          description: e.description,
        })),
        fragmentLinkedWallet: linked
          ? {
              description:
                'The wallet linked to the demo Fragment account: transaction.from of link answers in the linked mode (docs/fragment-protocol.md §17). None of the demo wallets; its key is not published.',
              address: linked.address.toString({ bounceable: false, urlSafe: true }),
              rawAddress: linked.address.toRawString(),
              mode: fragment.config().faults.transactionFrom,
            }
          : null,
        fragment: fragment
          ? {
              baseUrl: '/fragment',
              // Several sessions of the demo account: the worker creates that many orders at once.
              cookies: demoFragmentCookies(seed, 4),
              receivingAddresses: Object.fromEntries(
                Object.entries(fragment.receivingAddresses).map(([name, address]) => [
                  name,
                  address.toString({ bounceable: false, urlSafe: true }),
                ]),
              ),
            }
          : null,
      })),
    );
    app.get('/health', (_req, res) => {
      res.json({ ok: true, block: chain.lastBlockSeqno });
    });
    // The probe path every starsgate image answers (Dockerfile HEALTHCHECK, Kubernetes probes).
    app.get('/livez', (_req, res) => {
      res.json({ status: 'ok' });
    });

    let closed = false;
    return {
      app,
      chain,
      ...(fragment ? { fragment } : {}),
      demoWallets,
      async close() {
        if (closed) return;
        closed = true;
        await fragment
          ?.save()
          .catch((err: unknown) => console.error('[sandbox] Fragment simulator state save failed', err));
        fragment?.close();
        await chain.close();
      },
    };
  } catch (err) {
    await chain.close();
    throw err;
  }
}

export interface StartedSandbox extends Sandbox {
  /** e.g. http://127.0.0.1:8090 (toncenter base: `${url}/toncenter`). */
  url: string;
  server: Server;
}

/** createSandbox + listen. `port: 0` picks a free port. */
export async function startSandbox(
  options: SandboxOptions & { port?: number; host?: string } = {},
): Promise<StartedSandbox> {
  const sandbox = await createSandbox(options);
  const host = options.host ?? '127.0.0.1';
  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = sandbox.app.listen(options.port ?? 8090, host, (err?: Error) => (err ? reject(err) : resolve(s)));
      s.on('error', reject);
    });
  } catch (err) {
    await sandbox.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    ...sandbox,
    url,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}
