/**
 * The real worker against real upstreams: a sandbox (local chain + Fragment simulator) on a free
 * port, a fresh migrated PostgreSQL database, this jest worker's Redis database under a fresh
 * BullMQ prefix, both assembled by their composition roots (`createWorker`, `createGateway`).
 * Purchases enter through the real gateway's intake (`POST /api/v1/purchases`), which stores and
 * enqueues them.
 */
import type { Product, PaymentMethod } from '@starsgate/domain';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Address } from '@ton/core';
import { Worker, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  FingerprintKeys,
  generateRingEntry,
  LeaseRepository,
  PurchaseRepository,
  type PurchaseRow,
  type SecretVault,
} from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import {
  createFragmentReads,
  decodeCommentPayload,
  FragmentClient,
  FragmentSessionPool,
  LoginStates,
  SessionLeases,
  sessionLeaseTtlMs,
} from '@starsgate/fragment';
import {
  closeQueue,
  createLogger,
  createPurchaseQueue,
  createRedisConnection,
  type PurchaseJobData,
} from '@starsgate/platform';
import { ToncenterChainClient, type ChainClient } from '@starsgate/ton';
import { createGateway, loadGatewayConfig, type CreatedGateway, type GatewayParts } from '@starsgate/gateway';
import { parseIndexed, startSandbox, type DemoWallet, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies, FAST_FRAGMENT_TIMINGS, type FragmentConfigPatch } from '@starsgate/sandbox/fragment';
import { loadWorkerConfig, type WorkerConfig } from '../../src/config';
import { createWorker } from '../../src/create-worker';
import { createPurchaseProcessor } from '../../src/purchases/purchase-processor';
import { startPurchaseWorker } from '../../src/purchases/purchase-worker';
import type { StepDeps } from '../../src/purchases/step-deps';
import { Sweeper } from '../../src/sweeper/sweeper';

/** For suites outside this workspace that drive the worker as a process (the deployment tests). */
export { assertPaidOnceAndDelivered } from './assert-paid-once';
/** For the security suites (test/security) that drive checkouts end to end. */
export { CheckoutBuyer } from './checkout-buyer';
export { get, post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './checkout-gateway';
/** For the security suites that hold a wallet busy so a purchase parks with its accepted request. */
export { walletLeaseName } from '../../src/purchases/wallet/wallet-lease';

export const FAST_FRAGMENT: FragmentConfigPatch = {
  ...FAST_FRAGMENT_TIMINGS,
  hangMs: 4_000,
  validitySeconds: 60,
};

/** A sandbox running elsewhere (its own process): the harness then starts none. */
export interface RemoteUpstream {
  url: string;
  usdtMaster: Address;
  receivingAddresses: { stars: Address; premium: Address };
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** A sandbox started elsewhere (another process, or one several harnesses share in this one). */
  upstream?: RemoteUpstream | StartedSandbox;
  seed?: string;
  blockMs?: number;
  fragment?: FragmentConfigPatch;
  env?: Record<string, string>;
  /** Fragment login sessions of the demo account the worker gets (default 1). */
  fragmentSessions?: number;
  /** Start the in-process worker (false for tests that spawn their own). */
  worker?: boolean;
}

export interface PurchaseInput {
  product: Product;
  username: string;
  /** Stars, Premium, GRAM; a product with quantity fields of its own sends those instead. */
  amount?: number;
  winners?: number;
  months?: number;
  payment_method: PaymentMethod;
  seed: string;
  wallet_address?: string;
  account_index?: number;
}

/** The intake gateway admits every purchase a test sends: its per-client limits are not under test here. */
const INTAKE_LIMITS: Record<string, string> = {
  RATE_LIMIT_MAX: '1000000',
  OPEN_ORDERS_PER_PAYER: '10000000',
  OPEN_ORDERS_TOTAL: '10000000',
  KEY_DERIVATIONS_PER_MINUTE: '1000000',
};

interface Intake {
  url: string;
  close(): Promise<void>;
}

export class WorkerHarness {
  worker?: Worker<PurchaseJobData>;
  sweeper?: Sweeper;
  private warmUp: Promise<unknown> = Promise.resolve();
  private readonly connections: Redis[] = [];
  private readonly gateways: CreatedGateway[] = [];
  private intakes = new Map<'enqueued' | 'not enqueued', Promise<Intake>>();
  private constructor(
    private readonly upstream: StartedSandbox | RemoteUpstream,
    readonly database: TestDatabase,
    readonly redis: Redis,
    readonly queue: Queue<PurchaseJobData>,
    readonly bullPrefix: string,
    readonly vault: SecretVault,
    readonly secretKeyEnv: string,
    readonly env: Record<string, string>,
    readonly config: WorkerConfig,
    readonly chain: ChainClient,
    readonly purchases: PurchaseRepository,
    readonly deps: StepDeps,
  ) {}

  static async start(options: HarnessOptions = {}): Promise<WorkerHarness> {
    const seed = options.seed ?? `worker-test-${randomBytes(3).toString('hex')}`;
    const sandbox =
      options.upstream ??
      (await startSandbox({
        port: 0,
        seed,
        blockMs: options.blockMs ?? 200,
        fragment: { ...FAST_FRAGMENT, ...options.fragment },
      }));
    const receivers = 'chain' in sandbox ? sandbox.fragment!.receivingAddresses : sandbox.receivingAddresses;
    const usdtMaster = 'chain' in sandbox ? sandbox.chain.usdtMaster : sandbox.usdtMaster;
    const database = await createTestDatabase();
    const bullPrefix = `wt-${randomBytes(4).toString('hex')}`;
    const secretKeyEnv = generateRingEntry('t1');
    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      BULLMQ_PREFIX: bullPrefix,
      LOG_LEVEL: process.env.WORKER_TEST_LOG_LEVEL ?? 'silent',
      NODE_ENV: 'test',
      STARSGATE_SECRET_KEY: secretKeyEnv,
      TON_NETWORK: 'mainnet',
      FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
      FRAGMENT_COOKIES: demoFragmentCookies(seed, options.fragmentSessions ?? 1),
      FRAGMENT_TIMEOUT_MS: '2000',
      TONCENTER_URL: `${sandbox.url}/toncenter`,
      // The sandbox's toncenter has no request limit unless a test sets one.
      TONCENTER_RPS: '0',
      USDT_MASTER_ADDRESS: usdtMaster.toString(),
      FRAGMENT_RECEIVING_ADDRESSES: [receivers.stars, receivers.premium].map((a) => a.toRawString()).join(','),
      LEASE_MS: '5000',
      JOB_LOCK_MS: '5000',
      SWEEP_INTERVAL_MS: '500',
      RETRY_BASE_MS: '100',
      RETRY_MAX_MS: '1000',
      // An order the price book cannot price is refused after 2 s of asking, not the minute a service waits.
      PRICE_BOOK_WAIT_MS: '2000',
      POLL_INTERVAL_MS: '150',
      WALLET_BUSY_RETRY_MS: '1000',
      VALID_UNTIL_MARGIN_MS: '2000',
      CONFIRMING_MAX_AGE_MS: '20000',
      SUBMITTED_MAX_AGE_MS: '5000',
      // Webhook receivers in these tests listen on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'loopback',
      ...options.env,
    };
    const config = loadWorkerConfig({ ...env });
    const redis = createRedisConnection(env.REDIS_URL!);
    const queueConnection = createRedisConnection(env.REDIS_URL!);
    const queue = createPurchaseQueue(queueConnection, bullPrefix);
    const chain = new ToncenterChainClient({ baseUrl: config.toncenterUrl });
    const leases = new SessionLeases(redis, {
      ttlMs: sessionLeaseTtlMs(config.fragmentTimeoutMs),
      callTimeoutMs: config.fragmentTimeoutMs,
    });
    const fragment = new FragmentSessionPool(
      config.fragmentCookies.map(
        (cookies) =>
          new FragmentClient({
            baseUrl: config.fragmentBaseUrl,
            cookies,
            timeoutMs: config.fragmentTimeoutMs,
            retry: { baseDelayMs: 50 },
            // As the worker's upstreams: one flow per session across harnesses sharing a login.
            leases,
          }),
      ),
      // Each login's state in Redis, where the operator API reads it (as the worker's upstreams).
      { states: new LoginStates(redis) },
    );
    const { deps } = createWorker(config, {
      logger: createLogger({ service: 'worker-test', level: env.LOG_LEVEL }),
      database,
      queue,
      upstreams: { chain, fragment },
      // The price book the funds pre-check reads (docs/security.md, attack 4), as the worker's main wires it.
      prices: createFragmentReads({ fragment: fragment.clients[0]!, redis, prefix: `${bullPrefix}:reads:` }).prices,
      workerId: `test-${randomBytes(3).toString('hex')}`,
    });
    const harness = new WorkerHarness(
      sandbox,
      database,
      redis,
      queue,
      bullPrefix,
      deps.vault,
      secretKeyEnv,
      env,
      config,
      chain,
      new PurchaseRepository(database.db),
      deps,
    );
    harness.connections.push(queueConnection);
    if (options.worker !== false) harness.startWorker();
    return harness;
  }

  /** The in-process sandbox (tests); not available with a remote upstream. */
  get sandbox(): StartedSandbox {
    if (!('chain' in this.upstream)) throw new Error('this harness runs against a remote sandbox');
    return this.upstream;
  }

  /**
   * Starts a worker as the worker's main does (Fragment sessions warm up while the first jobs are
   * fetched). `paused`: connected but taking no jobs until `runWorker()`.
   */
  startWorker(
    concurrency = 16,
    processor: (job: Job<PurchaseJobData>) => Promise<void> = createPurchaseProcessor(this.deps),
    options: { paused?: boolean } = {},
  ): void {
    const connection = createRedisConnection(this.env.REDIS_URL!, { forWorker: true });
    this.connections.push(connection);
    const started = startPurchaseWorker({
      connection,
      prefix: this.bullPrefix,
      concurrency,
      jobLockMs: this.config.jobLockMs,
      processor,
      fragment: this.deps.fragment,
      logger: this.deps.logger,
      autorun: !options.paused,
    });
    this.worker = started.worker;
    this.warmUp = started.warm;
    this.sweeper = new Sweeper({
      purchases: this.purchases,
      leases: new LeaseRepository(this.database.db),
      queue: this.queue,
      logger: this.deps.logger,
      batchSize: 1000,
      intervalMs: this.config.sweepIntervalMs,
    });
    this.sweeper.start();
    this.deps.deliveryWatch?.start();
    this.deps.checkoutWatch?.start();
    this.deps.chainWatch?.start();
  }

  /** A paused worker, once connected and its sessions warm, starts taking jobs. */
  async runWorker(): Promise<void> {
    await Promise.all([this.worker!.waitUntilReady(), this.warmUp]);
    void this.worker!.run();
  }

  async stopWorker(): Promise<void> {
    await this.sweeper?.stop();
    await this.deps.deliveryWatch?.stop();
    await this.deps.checkoutWatch?.stop();
    await this.deps.chainWatch?.stop();
    await this.worker?.close();
    this.worker = undefined;
    this.sweeper = undefined;
  }

  wallet(id: DemoWallet['id']): DemoWallet {
    const wallet = this.sandbox.demoWallets.find((w) => w.id === id);
    if (!wallet) throw new Error(`no demo wallet ${id}`);
    return wallet;
  }

  /**
   * The real gateway (`createGateway`) over this harness's database, Redis, queue, key ring and
   * chain, closed with the harness. `env` adds to the gateway's configuration (e.g. admin tokens).
   */
  gateway(env: Record<string, string> = {}, parts: GatewayParts = {}): CreatedGateway {
    const gateway = createGateway(loadGatewayConfig({ ...this.env, ...env }), {
      logger: createLogger({ service: 'gateway', level: this.env.LOG_LEVEL }),
      database: this.database,
      redis: this.redis,
      queue: this.queue,
      sealer: this.vault,
      fingerprints: new FingerprintKeys(`f1:${randomBytes(32).toString('base64')}`),
      chain: this.chain,
      redisKeyPrefix: `${this.bullPrefix}:gateway-${randomBytes(3).toString('hex')}`,
      ...parts,
    });
    this.gateways.push(gateway);
    return gateway;
  }

  /**
   * Accepts a purchase through the gateway's intake (`POST /api/v1/purchases`), which stores it
   * and enqueues its job. `enqueue: false`: the gateway's queue is one no worker consumes (under
   * another prefix), so the purchase waits as if its enqueue had been lost.
   */
  async createPurchase(input: PurchaseInput, options: { enqueue?: boolean } = {}): Promise<PurchaseRow> {
    const intake = await this.intake(options.enqueue === false ? 'not enqueued' : 'enqueued');
    const response = await fetch(`${intake.url}/api/v1/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...input, idempotency_key: `test-${randomUUID()}` }),
    });
    const body = (await response.json()) as { purchase_id?: string };
    if (response.status !== 202 || !body.purchase_id)
      throw new Error(`the gateway refused the purchase (${response.status}): ${JSON.stringify(body)}`);
    return this.find(body.purchase_id);
  }

  private intake(kind: 'enqueued' | 'not enqueued'): Promise<Intake> {
    let intake = this.intakes.get(kind);
    if (!intake) {
      intake = this.startIntake(kind);
      this.intakes.set(kind, intake);
    }
    return intake;
  }

  private async startIntake(kind: 'enqueued' | 'not enqueued'): Promise<Intake> {
    const unconsumed =
      kind === 'not enqueued' ? createPurchaseQueue(this.env.REDIS_URL!, `${this.bullPrefix}-unconsumed`) : undefined;
    const gateway = this.gateway(INTAKE_LIMITS, unconsumed ? { queue: unconsumed } : {});
    const server = gateway.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        if (unconsumed) {
          await unconsumed.obliterate({ force: true }).catch(() => undefined);
          await closeQueue(unconsumed);
        }
      },
    };
  }

  async find(id: string): Promise<PurchaseRow> {
    const row = await this.purchases.findById(id);
    if (!row) throw new Error(`purchase ${id} not found`);
    return row;
  }

  async waitFor(
    id: string,
    statuses: string[] = ['completed', 'failed', 'reconciliation_required'],
    timeoutMs = 45_000,
  ): Promise<PurchaseRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.find(id);
      if (statuses.includes(row.status)) return row;
      if (Date.now() > deadline)
        throw new Error(
          `purchase ${id} stuck in ${row.status} (wanted ${statuses.join('|')}); error=${JSON.stringify(row.error)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits until every purchase is terminal, reading the still-live ones in one query per poll. */
  async waitForAll(ids: string[], timeoutMs = 60_000): Promise<PurchaseRow[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Counted in PostgreSQL, rows read once at the end: the wait costs the worker under test little.
      const { rows } = await this.database.pool.query<{ live: number }>(
        "SELECT count(*)::int AS live FROM purchases WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed', 'reconciliation_required')",
        [ids],
      );
      const live = rows[0]!.live;
      if (live === 0) {
        const byId = new Map((await this.deps.transitions.findMany(ids)).map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id)!);
      }
      if (Date.now() > deadline)
        throw new Error(`${live} of ${ids.length} purchases not terminal after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  deliveredCount(ref: string | null): number {
    return this.sandbox.fragment!.stats().deliveredOrders.filter((d) => d.ref === ref).length;
  }

  /**
   * Payments per Ref# that left `walletRaw` on chain: every out-message of every wallet
   * transaction, its comment decoded (GRAM) or its jetton transfer's forward comment (USDT).
   */
  paymentsByRef(walletRaw: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.sandbox.chain.transactionIndex.list(walletRaw, { limit: 1_000_000, sort: 'asc' })) {
      for (const message of parseIndexed(entry).outMessages.values()) {
        if (message.info.type !== 'internal') continue;
        try {
          const ref = decodeCommentPayload(message.body.toBoc().toString('base64url')).ref;
          counts.set(ref, (counts.get(ref) ?? 0) + 1);
        } catch {
          // not a Fragment payment (e.g. a deploy message)
        }
      }
    }
    return counts;
  }

  /** The wallet transaction with this hash (hex), read from the chain's own index. */
  transactionExists(walletRaw: string, hashHex: string): boolean {
    return this.sandbox.chain.transactionIndex
      .list(walletRaw, { limit: 1_000_000 })
      .some((e) => e.hash.toString('hex') === hashHex);
  }

  async close(): Promise<void> {
    await this.stopWorker();
    for (const intake of this.intakes.values()) await (await intake).close();
    await Promise.all(this.gateways.map((gateway) => gateway.close()));
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await closeQueue(this.queue);
    await this.redis.quit();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
    await this.upstream.close();
    await this.database.drop();
  }
}

export { FAST_WEBHOOKS, WebhookHarness } from './webhook-harness';
