/**
 * The steady mixed load of a soak run, as order systems, shops and an operator would make it:
 * - new orders at a fixed rate: server-signed purchases (Stars and Premium, GRAM and USDT, over
 *   several wallets of every seed kind, each preceded by an availability check, a few repeated
 *   with their idempotency key) and client-signed checkouts (signed by the driver's own wallets);
 * - every open order polled every 2 s until it ends, as a client without webhooks would;
 * - reference prices and quotes, operator listings, stats, order details and webhook deliveries on
 *   timers of their own.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { SendTransactionRequest } from '@starsgate/ton';
import type { CheckoutWallet } from './checkout-wallet';
import type { GatewayClient } from './http-client';
import type { PayerWallet } from './payer-wallets';

const USERNAMES = ['@alice', '@bob', '@carol', '@dave', '@erin'];
const STARS_AMOUNTS = [50, 100, 250, 500, 1000];
const PREMIUM_MONTHS = [3, 6, 12];
const FINAL = new Set(['completed', 'failed', 'expired', 'reconciliation_required']);
const POLL_MS = 2_000;
const REPLAY_SHARE = 0.05;

export interface FinishedOrder {
  id: string;
  kind: 'purchase' | 'checkout';
  status: string;
  errorCode?: string;
  /** From the 202 to the poll that saw the final status, ms. */
  elapsedMs: number;
}

export interface DriverMinute {
  purchasesCreated: number;
  checkoutsCreated: number;
  finished: FinishedOrder[];
}

interface Order {
  product: 'stars' | 'premium';
  username: string;
  amount: number;
  payment_method: 'gram' | 'usdt';
}

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function randomOrder(): Order {
  const premium = Math.random() < 0.35;
  return {
    product: premium ? 'premium' : 'stars',
    username: pick(USERNAMES),
    amount: premium ? pick(PREMIUM_MONTHS) : pick(STARS_AMOUNTS),
    payment_method: Math.random() < 0.6 ? 'gram' : 'usdt',
  };
}

export class LoadDriver {
  /** Orders created and not seen final yet, by id. */
  readonly open = new Map<string, { kind: 'purchase' | 'checkout'; createdAt: number }>();
  /** Every order the gateway accepted (a 202), final or not. */
  readonly accepted: Array<{ id: string; kind: 'purchase' | 'checkout' }> = [];
  readonly finished: FinishedOrder[] = [];
  checkoutsSkipped = 0;
  private minute: DriverMinute = { purchasesCreated: 0, checkoutsCreated: 0, finished: [] };
  private arrivals = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private nextPayer = 0;
  private adminCursor: string | null = null;

  constructor(
    private readonly client: GatewayClient,
    private readonly payers: PayerWallet[],
    private readonly checkoutWallets: CheckoutWallet[],
    private readonly settings: { rate: number; checkoutShare: number },
  ) {}

  takeMinute(): DriverMinute {
    const minute = this.minute;
    this.minute = { purchasesCreated: 0, checkoutsCreated: 0, finished: [] };
    return minute;
  }

  /** Starts the arrivals and the background reads. */
  start(): void {
    this.arrivals = true;
    void this.arrive();
    const every = (ms: number, task: () => Promise<unknown>) =>
      this.timers.push(setInterval(() => this.track(task().then(() => undefined)), ms));
    every(2_000, () => this.client.call('prices', 'GET', '/api/v1/prices'));
    every(2_000, () => {
      const premium = Math.random() < 0.5;
      const amount = premium ? pick(PREMIUM_MONTHS) : pick(STARS_AMOUNTS);
      return this.client.call(
        'quote',
        'GET',
        `/api/v1/prices/quote?product=${premium ? 'premium' : 'stars'}&amount=${amount}`,
      );
    });
    every(5_000, () => this.adminListing());
    every(5_000, () => this.client.call('admin stats', 'GET', '/admin/api/stats', { admin: true }));
    every(5_000, () => this.adminDetail());
    every(15_000, () =>
      this.client.call('admin deliveries', 'GET', '/admin/api/webhook-deliveries?limit=20', { admin: true }),
    );
  }

  /** No new orders and no background reads; open orders are still followed. */
  stopArrivals(): void {
    this.arrivals = false;
    for (const timer of this.timers) clearInterval(timer);
  }

  /** Runs a task in the background; what it throws is a driver error in the report. */
  private track(task: Promise<void>): void {
    task.catch((error: unknown) =>
      this.client.recordError('driver', error instanceof Error ? (error.stack ?? error.message) : String(error)),
    );
  }

  /** One new order every 1/rate s on a fixed schedule (a late tick does not shift the ones after it). */
  private async arrive(): Promise<void> {
    const interval = 1000 / this.settings.rate;
    let next = performance.now();
    while (this.arrivals) {
      const wallet = Math.random() < this.settings.checkoutShare ? this.freeCheckoutWallet() : undefined;
      if (wallet) this.track(this.checkout(wallet));
      else this.track(this.purchase());
      next += interval;
      await sleep(Math.max(0, next - performance.now()));
    }
  }

  private freeCheckoutWallet(): CheckoutWallet | undefined {
    const wallet = this.checkoutWallets.find((candidate) => !candidate.busy);
    if (!wallet) this.checkoutsSkipped += 1;
    return wallet;
  }

  private async purchase(): Promise<void> {
    const order = randomOrder();
    await this.client.call('availability', 'POST', '/api/v1/availability/check', {
      body: order,
      tolerated: [429, 503],
    });
    const payer = this.payers[this.nextPayer++ % this.payers.length]!;
    const body = {
      ...order,
      seed: payer.seed,
      ...(payer.bip39 ? { account_index: payer.accountIndex } : {}),
      idempotency_key: `soak-${randomBytes(8).toString('hex')}`,
    };
    const created = await this.client.call<{ purchase_id: string }>('create purchase', 'POST', '/api/v1/purchases', {
      body,
      expected: [202],
    });
    if (!created) return;
    const id = created.body.purchase_id;
    this.accept(id, 'purchase');
    this.minute.purchasesCreated += 1;
    if (Math.random() < REPLAY_SHARE) {
      const replay = await this.client.call<{ purchase_id: string }>('replay purchase', 'POST', '/api/v1/purchases', {
        body,
        expected: [200, 202],
      });
      if (replay && (replay.body.purchase_id !== id || replay.headers.get('idempotent-replayed') !== 'true'))
        this.client.recordError('replay purchase', `replay answered ${replay.body.purchase_id}, not ${id}`);
    }
    await this.follow(id, 'purchase', `/api/v1/purchases/${id}`, 'read purchase');
  }

  private async checkout(wallet: CheckoutWallet): Promise<void> {
    wallet.busy = true;
    try {
      const order = randomOrder();
      const created = await this.client.call<{ checkout_id: string }>('create checkout', 'POST', '/api/v1/checkouts', {
        body: {
          ...order,
          payer_address: wallet.address.toString(),
          idempotency_key: `soak-co-${randomBytes(8).toString('hex')}`,
        },
        expected: [202],
      });
      if (!created) return;
      const id = created.body.checkout_id;
      this.accept(id, 'checkout');
      this.minute.checkoutsCreated += 1;
      const path = `/api/v1/checkouts/${id}`;
      let prepared: { status: string; transaction?: SendTransactionRequest } | null = null;
      while (!prepared || prepared.status === 'preparing') {
        await sleep(prepared ? 1_000 : 500);
        const read = await this.client.call<{ status: string; transaction?: SendTransactionRequest }>(
          'read checkout',
          'GET',
          path,
        );
        if (read) prepared = read.body;
      }
      if (prepared.status === 'awaiting_signature' && prepared.transaction) {
        const boc = await wallet.sign(prepared.transaction);
        await this.client.call('submit checkout', 'POST', `${path}/submitted`, { body: { boc }, expected: [202] });
      }
      await this.follow(id, 'checkout', path, 'read checkout');
    } finally {
      wallet.busy = false;
    }
  }

  private accept(id: string, kind: 'purchase' | 'checkout'): void {
    this.open.set(id, { kind, createdAt: performance.now() });
    this.accepted.push({ id, kind });
  }

  /** Polls the order until it is final (no deadline here: the run's drain has one). */
  private async follow(id: string, kind: 'purchase' | 'checkout', path: string, readKind: string): Promise<void> {
    for (;;) {
      const read = await this.client.call<{ status: string; error?: { code?: string } }>(readKind, 'GET', path);
      if (read && FINAL.has(read.body.status)) {
        const started = this.open.get(id)?.createdAt ?? performance.now();
        this.open.delete(id);
        const done: FinishedOrder = {
          id,
          kind,
          status: read.body.status,
          elapsedMs: performance.now() - started,
          ...(read.body.error?.code ? { errorCode: read.body.error.code } : {}),
        };
        this.finished.push(done);
        this.minute.finished.push(done);
        return;
      }
      await sleep(POLL_MS);
    }
  }

  /** The operator's order list: newest first, a filter at a time, and the next page now and then. */
  private async adminListing(): Promise<void> {
    const filters = [
      '',
      'status=completed',
      'mode=client_signed',
      `username=${pick(USERNAMES).slice(1)}`,
      'product=premium',
    ];
    const query = this.adminCursor ? `cursor=${encodeURIComponent(this.adminCursor)}` : pick(filters);
    const page = await this.client.call<{ next_cursor: string | null }>(
      'admin list',
      'GET',
      `/admin/api/purchases?limit=50&${query}`,
      {
        admin: true,
      },
    );
    this.adminCursor = this.adminCursor ? null : (page?.body.next_cursor ?? null);
  }

  private async adminDetail(): Promise<void> {
    const done = this.finished[this.finished.length - 1 - randomInt(Math.min(50, this.finished.length) || 1)];
    if (done) await this.client.call('admin detail', 'GET', `/admin/api/purchases/${done.id}`, { admin: true });
  }
}
