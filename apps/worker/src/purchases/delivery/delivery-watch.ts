import { randomUUID } from 'node:crypto';
import type { ParkedPurchase, PurchaseRow } from '@starsgate/db';
import { HeldPurchase } from '../persistence/held-purchase';
import { dropStaleJobs } from '../persistence/purchase-jobs';
import type { StepDeps } from '../step-deps';
import { LeaderLease } from '../waits/leader-lease';
import { LookBackoff } from '../waits/look-backoff';
import { completeObserved, observeDeliveries, type ObservedDelivery } from './batch-settlement';

/** Parked purchases one pass looks at, oldest first. */
const PARKED_PER_PASS = 5_000;

/** One Fragment account's parked purchases, as the watch last saw them. */
interface AccountWatch {
  backoff: LookBackoff;
  /** The parked ids seen at the last pass: one not among them started waiting since. */
  known: Set<string>;
  nextLookAt: number;
}

export interface WatchPass {
  /** Accounts looked at in this pass. */
  looked: number;
  /** Purchases completed. */
  completed: number;
}

/** What a step tells the watch (StepDeps.deliveryWatch). */
export interface DeliveryWaits {
  /** A purchase of this process parked to wait for its delivery: look soon. */
  waiting(): void;
}

/**
 * The shared look of purchases parked for Fragment's delivery (docs/purchase-safety.md, Waiting
 * costs nothing). A parked row is released, due at its step's deadline; nothing writes it while it
 * waits. One replica at a time (LeaderLease) reads the parked rows (ids, versions, sessions: read
 * only) every poll interval, groups them by the Fragment account whose history answers them, and
 * looks at an account when its backoff says so: one history read for all of its purchases
 * (observeDeliveries). Only the purchases a look shows delivered are claimed, fenced on the version
 * read, and completed. An account's looks back off while they show nothing new (LookBackoff, up to
 * WAIT_LOOK_MAX_MS) and come back to the poll interval when one of its purchases starts waiting or
 * a delivery is seen. Losing the watch (a crash, a Redis flush) loses only wake-ups: each row's
 * deadline job, or the sweeper, still runs its step.
 */
export class DeliveryWatch implements DeliveryWaits {
  private readonly accounts = new Map<string, AccountWatch>();
  private readonly owner: string;
  private readonly lease: LeaderLease;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private started = false;
  /** When the next pass is due (ms); a `waiting()` brings it forward. */
  private dueAt = 0;
  /** This replica parked a purchase since the last pass began. */
  private poke = false;

  constructor(private readonly deps: StepDeps) {
    this.owner = `${deps.workerId}:delivery-watch:${randomUUID().slice(0, 8)}`;
    this.lease = new LeaderLease(
      deps.leases,
      'delivery-watch',
      this.owner,
      // Renewed at every pass; a look slowed by Fragment's timeout may outlive it (a second look, no harm).
      3 * deps.config.pollIntervalMs + deps.config.fragmentTimeoutMs,
    );
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.lease.release();
  }

  waiting(): void {
    if (!this.started) return;
    this.poke = true;
    this.schedule(this.deps.config.fastPollMs);
  }

  /** The wait before an account's next look while it shows nothing new (tests, metrics). */
  intervalOf(account: string): number | undefined {
    return this.accounts.get(account)?.backoff.peek();
  }

  /** A pass: the parked rows read, and each account whose look is due (or that gained a purchase) looked at. */
  async pass(): Promise<WatchPass> {
    const { deps } = this;
    if (!(await this.lease.hold())) {
      this.accounts.clear();
      return { looked: 0, completed: 0 };
    }
    const parked = await deps.transitions.parkedAwaitingDelivery(PARKED_PER_PASS);
    const byAccount = new Map<string, ParkedPurchase[]>();
    for (const purchase of parked) {
      const account = deps.fragment.session(purchase.fragmentSession).accountId();
      byAccount.set(account, [...(byAccount.get(account) ?? []), purchase]);
    }
    for (const account of this.accounts.keys()) if (!byAccount.has(account)) this.accounts.delete(account);
    let looked = 0;
    let completed = 0;
    for (const [account, purchases] of byAccount) {
      const now = deps.now();
      let watch = this.accounts.get(account);
      if (!watch) {
        watch = {
          backoff: new LookBackoff(deps.config.pollIntervalMs, deps.config.waitLookMaxMs),
          known: new Set(),
          nextLookAt: now,
        };
        this.accounts.set(account, watch);
      }
      const arrived = purchases.some((purchase) => !watch.known.has(purchase.id));
      watch.known = new Set(purchases.map((purchase) => purchase.id));
      if (arrived) {
        watch.backoff.reset();
        watch.nextLookAt = Math.min(watch.nextLookAt, now);
      }
      if (now < watch.nextLookAt) continue;
      looked += 1;
      try {
        const done = await this.look(purchases);
        completed += done;
        if (done > 0) {
          // Fragment delivers a batch's orders close together: the rest soon.
          watch.backoff.reset();
          watch.nextLookAt = deps.now() + deps.config.fastPollMs;
        } else {
          watch.nextLookAt = deps.now() + watch.backoff.next();
        }
      } catch (error) {
        deps.logger.warn('delivery watch: look failed', { account, error });
        watch.nextLookAt = deps.now() + watch.backoff.next();
      }
    }
    return { looked, completed };
  }

  /** One look at an account's parked purchases; claims and completes those it shows delivered. */
  private async look(parked: readonly ParkedPurchase[]): Promise<number> {
    const { deps } = this;
    const versions = new Map(parked.map((purchase) => [purchase.id, purchase.version]));
    // Full rows of what was listed, as of the versions listed (a row that moved is another's now).
    const rows = (await deps.transitions.findMany([...versions.keys()])).filter(
      (row) => row.version === versions.get(row.id) && row.status === 'confirming' && row.transactionHash !== null,
    );
    if (rows.length === 0) return 0;
    const observed = await observeDeliveries(deps, rows, deps.now());
    const delivered = observed.filter((seen) => seen.completes);
    if (delivered.length === 0) return 0;
    const owner = `${this.owner}:${randomUUID().slice(0, 8)}`;
    const claimed = await deps.transitions.claimParked(
      delivered.map((seen) => ({ id: seen.row.id, version: seen.row.version })),
      'confirming',
      owner,
      deps.config.leaseMs,
    );
    if (claimed.length === 0) return 0;
    const seenById = new Map<string, ObservedDelivery>(delivered.map((seen) => [seen.row.id, seen]));
    await completeObserved(
      deps,
      claimed.map((row: PurchaseRow) => ({
        member: new HeldPurchase(deps, row, owner),
        observed: { ...seenById.get(row.id)!, row },
      })),
    );
    // Their deadline jobs are for the version before the claim: stale now.
    await dropStaleJobs(deps, claimed);
    return claimed.length;
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    const dueAt = this.deps.now() + Math.max(0, delayMs);
    if (this.timer && this.dueAt <= dueAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = dueAt;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.running ??= this.tick().finally(() => {
          this.running = undefined;
          this.schedule(this.nextPassInMs());
        });
      },
      Math.max(0, delayMs),
    );
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.poke = false;
    try {
      await this.pass();
    } catch (error) {
      this.deps.logger.warn('delivery watch: pass failed', { error });
    }
  }

  /**
   * The parked rows are read every poll interval (a purchase parked by another replica starts its
   * account's looks over), sooner when an account's look is due earlier or this replica parked one.
   */
  private nextPassInMs(): number {
    const now = this.deps.now();
    let next = this.deps.config.pollIntervalMs;
    for (const watch of this.accounts.values()) next = Math.min(next, watch.nextLookAt - now);
    if (this.poke) next = Math.min(next, this.deps.config.fastPollMs);
    return Math.max(this.deps.config.fastPollMs, next);
  }
}
