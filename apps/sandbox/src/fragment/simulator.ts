import type { Address } from '@ton/core';
import type { WalletContractV5R1 } from '@ton/ton';
import express, { type Request, type Response, type Router } from 'express';
import { createAdminRouter } from './admin-router';
import { createApiHandler } from './api-router';
import type { FragmentChainView } from './chain-view';
import {
  defaultConfig,
  type FragmentConfigPatch,
  type FragmentSimulatorConfig,
  mergeInto,
  validateConfig,
} from './config';
import { demoCredentials } from './demo-credentials';
import { RecipientDirectory } from './directory';
import { FaultInjector } from './faults';
import type { SimulatorContext } from './methods/context';
import { type DeliveredOrder, OrderBook } from './orders';
import { createPageHandler } from './page-router';
import { pagePaths } from './pages';
import { decodeOrder, encodeOrder, saveFragmentState, type PersistedFragmentState } from './order-persistence';
import { PaymentWatcher } from './payment-watcher';
import { PriceBook } from './pricing';
import { RECEIVER_NAMES, type ReceiverName } from './products/pack';
import { deriveReceivers, receiverWallet } from './receivers';
import { SeededRandom } from './random';
import { parseAddressLoose, SessionStore } from './sessions';
import { CallCounter } from './stats';

export interface FragmentSimulatorOptions {
  chain: FragmentChainView;
  /** Deterministic receiving addresses, tokens, refs and fault draws. */
  seed: string;
  config?: Partial<FragmentSimulatorConfig> | FragmentConfigPatch;
  /** Wall clock in ms (price drift, hash rotation). Order validity uses `chain.now()`. */
  clock?: () => number;
  /**
   * The world saved here (beside the chain's state) is taken back, and kept saved: orders and the
   * accounts' histories survive a restart (order-persistence.ts). Omitted: kept in memory only.
   */
  persisted?: { dataDir: string; saved: PersistedFragmentState | null; saveIntervalMs?: number };
}

export interface FragmentStats {
  calls: Record<string, number>;
  deliveredOrders: DeliveredOrder[];
  /** Inits the strictFlow fault refused (interleaved flows, or a flow without a fresh start). */
  strictFlowRejections: number;
}

export interface FragmentSimulator {
  /** Mount at /fragment. */
  router: Router;
  /** Sandbox-only live control of faults and config (mount at /admin/fragment). */
  admin: Router;
  directory: RecipientDirectory;
  stats(): FragmentStats;
  /** The allow-list the worker is configured with in sandbox mode. */
  receivingAddresses: Record<ReceiverName, Address>;
  /**
   * The wallet linked to the demo Fragment account (docs/fragment-protocol.md §17): seed-derived,
   * none of the demo wallets; `transaction.from` of `linked`-mode link answers. The sandbox funds
   * and deploys it; `address` is the configured `demoWallet` when one is set.
   */
  linkedWallet: { address: Address; contract?: WalletContractV5R1; secretKey?: Buffer };
  /** The seed-derived receiving wallets (not overridden by config), to deploy them like Fragment's real, active ones. */
  ownReceiverWallets(): Array<{ label: ReceiverName; contract: WalletContractV5R1; secretKey: Buffer }>;
  /** Current config (live object: mutate via `admin` or `configure`). */
  config(): FragmentSimulatorConfig;
  /** Applies a partial config patch (same semantics as `PUT /admin/fragment/config`). */
  configure(patch: FragmentConfigPatch): void;
  /** Resolves once every block delivered so far has been matched against orders. */
  idle(): Promise<void>;
  /** Writes the orders and histories now (with `persisted`; otherwise nothing to do). */
  save(): Promise<void>;
  close(): void;
}

export function createFragmentSimulator(options: FragmentSimulatorOptions): FragmentSimulator {
  const clock = options.clock ?? Date.now;
  const random = new SeededRandom(options.seed);
  const demo = demoCredentials(options.seed);

  let config: FragmentSimulatorConfig = defaultConfig();
  config.acceptedStelTokens = [demo.stelToken];
  config.acceptedTonTokens = { [demo.stelTonToken]: '' };
  if (options.config) mergeInto(config as unknown as Record<string, unknown>, options.config);
  const ownLinkedWallet = receiverWallet(random, 'linked-wallet');
  config.demoWallet ??= ownLinkedWallet.contract.address.toRawString();
  if (config.acceptedTonTokens[demo.stelTonToken] === '')
    config.acceptedTonTokens[demo.stelTonToken] = config.demoWallet;
  const linkedAddress = parseAddressLoose(config.demoWallet);
  if (!linkedAddress) throw new Error(`demoWallet is not a TON address: ${config.demoWallet}`);
  const linkedWallet = linkedAddress.equals(ownLinkedWallet.contract.address)
    ? { address: linkedAddress, contract: ownLinkedWallet.contract, secretKey: ownLinkedWallet.secretKey }
    : { address: linkedAddress };
  validateConfig(config);
  const directory = new RecipientDirectory(config.directory);
  delete config.directory;
  const getConfig = () => config;

  const receivers = deriveReceivers(random, config);
  const sessions = new SessionStore(getConfig, clock, random);
  const prices = new PriceBook(getConfig, clock, random);
  const orders = new OrderBook(getConfig, clock, () => options.chain.now(), random);
  const faults = new FaultInjector(getConfig, random);
  const sim: SimulatorContext = {
    config: getConfig,
    clock,
    chain: options.chain,
    random,
    sessions,
    directory,
    prices,
    orders,
    faults,
    receivers,
  };

  // The flow's `lv` changes whenever its current order changes status.
  orders.onChange((order) => {
    const session = sessions.get(order.ssid);
    const flow = session?.flows[order.product];
    if (flow && flow.currentReqId === order.reqId) flow.lv += 1;
  });

  const watcher = new PaymentWatcher(options.chain, orders, () => RECEIVER_NAMES.map((name) => receivers[name]));
  watcher.start();

  const persisted = options.persisted;
  if (persisted?.saved)
    orders.restore({
      orders: persisted.saved.orders.map(decodeOrder),
      deliveredRefs: persisted.saved.deliveredRefs,
      delivered: persisted.saved.delivered,
    });
  let savedChanges = orders.changes;
  const save = async (): Promise<void> => {
    if (!persisted || orders.changes === savedChanges) return;
    savedChanges = orders.changes;
    const world = orders.persisted();
    await saveFragmentState(persisted.dataDir, {
      version: 1,
      savedAt: new Date().toISOString(),
      orders: world.orders.map(encodeOrder),
      deliveredRefs: world.deliveredRefs,
      delivered: world.delivered,
    });
  };
  const saveTimer = persisted
    ? setInterval(() => {
        save().catch((err: unknown) => console.error('[sandbox] Fragment simulator state save failed', err));
      }, persisted.saveIntervalMs ?? 5_000)
    : undefined;
  saveTimer?.unref();

  const counter = new CallCounter();
  const router = express.Router();
  router.post('/api', ...createApiHandler(sim, counter));
  for (const { kind, path } of pagePaths()) router.get(path, createPageHandler(sim, counter, kind));
  // AJAX navigation to an unknown page: 302 (docs/fragment-protocol.md §3.2).
  router.get(/.*/, (req: Request, res: Response, next) => {
    if ((req.get('x-requested-with') ?? '').toLowerCase() === 'xmlhttprequest') res.redirect(302, req.baseUrl + '/');
    else next();
  });

  const stats = (): FragmentStats => ({
    calls: counter.snapshot(),
    deliveredOrders: orders.delivered.map((d) => ({ ...d })),
    strictFlowRejections: sessions.strictFlowRejections,
  });
  const configure = (patch: FragmentConfigPatch) => {
    const next = structuredClone(config);
    mergeInto(next as unknown as Record<string, unknown>, patch);
    validateConfig(next);
    if (next.directory) {
      directory.replace(next.directory);
      delete next.directory;
    }
    config = next;
  };

  const admin = createAdminRouter({
    config: getConfig,
    setConfig: (next) => {
      config = next;
    },
    directory,
    stats,
    orders: () =>
      orders.all().map((o) => ({
        reqId: o.reqId,
        ref: o.ref,
        product: o.product,
        username: o.username,
        quantity: o.quantity,
        ...(o.months !== undefined ? { months: o.months } : {}),
        paymentMethod: o.paymentMethod,
        amount: o.amountText,
        status: o.status,
        validUntil: o.validUntil,
        from: o.from?.toRawString(),
        paid: o.payment?.txHash,
        badPayment: o.badPayment,
        confirmed: !!o.confirm,
        extraPayments: o.extraPayments,
      })),
    payments: () => watcher.observed,
    receivers: () =>
      Object.fromEntries(
        RECEIVER_NAMES.flatMap((name) => [
          [name, receivers[name].toString({ bounceable: false })],
          [`${name}Raw`, receivers[name].toRawString()],
        ]),
      ),
  });

  return {
    router,
    admin,
    directory,
    stats,
    receivingAddresses: Object.fromEntries(RECEIVER_NAMES.map((name) => [name, receivers[name]])) as Record<
      ReceiverName,
      Address
    >,
    linkedWallet,
    ownReceiverWallets: () =>
      RECEIVER_NAMES.map((label) => receiverWallet(random, label)).filter((wallet) =>
        wallet.contract.address.equals(receivers[wallet.label]),
      ),
    config: getConfig,
    configure,
    idle: () => watcher.idle(),
    save,
    close: () => {
      if (saveTimer) clearInterval(saveTimer);
      watcher.stop();
      orders.close();
      faults.close();
    },
  };
}
