import { randomUUID } from 'node:crypto';
import type { PurchaseRow } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import { LeaderLease } from './leader-lease';
import { LookBackoff } from './look-backoff';
import { ParkedRows } from './parked-rows';

/** Parked rows one pass lists, oldest first. */
const PARKED_PER_PASS = 5_000;

/** A parked row as a shared look lists it: read only, with the group whose one answer covers it. */
export interface ParkedEntry {
  id: string;
  version: number;
  /** What one upstream answer covers: a Fragment account (its history), a payer wallet (its transactions). */
  group: string;
  /** Its group is looked at at least this often, whatever the backoff (a rebroadcast that is due). */
  lookWithinMs?: number;
}

/** What a shared look watches for: how to list its parked rows, and one look at a group of them. */
export interface LookSubject {
  /** Names the lease and the lease owners of the rows it claims (`<worker>:<name>:…`). */
  name: string;
  /** The parked rows, oldest first, at most `limit`, read only. */
  list(limit: number): Promise<ParkedEntry[]>;
  /**
   * One look at a group's parked rows (full rows, as of the versions listed); moves those the
   * answer covers. Returns how many moved.
   */
  look(rows: readonly PurchaseRow[], owner: string): Promise<number>;
}

/** One group's parked rows, as the watch last saw them. */
interface GroupWatch {
  backoff: LookBackoff;
  /** The parked ids seen at the last pass: one not among them started waiting since. */
  known: Set<string>;
  nextLookAt: number;
  /** Until when looks follow an answer every FAST_POLL_MS (a batch's deliveries come close together). */
  followUntil: number;
}

export interface LookPass {
  /** Groups looked at in this pass. */
  looked: number;
  /** Rows moved. */
  moved: number;
}

/**
 * The shared look that wakes parked purchases (docs/purchase-safety.md, Waiting costs nothing). A
 * parked row is released, due at its step's deadline; nothing writes it while it waits. One
 * replica at a time (LeaderLease) lists the parked rows every poll interval (ids, versions and
 * groups: read only) and looks at a group when its backoff says so: one upstream answer for all
 * of its rows. Only the rows that answer moves are written, fenced on the version listed. A
 * group's looks back off while they show nothing new (LookBackoff, up to WAIT_LOOK_MAX_MS) and
 * come back to the poll interval when one of its rows starts waiting or one moves. Losing the
 * watch (a crash, a Redis flush) loses only wake-ups: each row's deadline job, or the sweeper's,
 * still runs its step.
 */
export class SharedLook {
  private readonly groups = new Map<string, GroupWatch>();
  private readonly rows: ParkedRows;
  private readonly owner: string;
  private readonly lease: LeaderLease;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private started = false;
  /** When the next pass is due (ms); `waiting()` brings it forward. */
  private dueAt = 0;
  /** This replica parked a row since the last pass began. */
  private poke = false;

  constructor(
    private readonly deps: StepDeps,
    private readonly subject: LookSubject,
  ) {
    this.owner = `${deps.workerId}:${subject.name}:${randomUUID().slice(0, 8)}`;
    this.rows = new ParkedRows(deps);
    this.lease = new LeaderLease(
      deps.leases,
      subject.name,
      this.owner,
      // Renewed at every pass; a look slowed by an upstream's timeout may outlive it (a second look, no harm).
      3 * deps.config.pollIntervalMs + deps.config.fragmentTimeoutMs,
      deps.now,
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

  /** A row of this process parked: look soon. */
  waiting(): void {
    if (!this.started) return;
    this.poke = true;
    this.schedule(this.deps.config.fastPollMs);
  }

  /** The wait before a group's next look while it shows nothing new (tests). */
  intervalOf(group: string): number | undefined {
    return this.groups.get(group)?.backoff.peek();
  }

  /** A pass: the parked rows listed, and each group whose look is due (or that gained a row) looked at. */
  async pass(): Promise<LookPass> {
    const { deps } = this;
    if (!(await this.lease.hold())) {
      this.groups.clear();
      return { looked: 0, moved: 0 };
    }
    const listed = await this.subject.list(PARKED_PER_PASS);
    this.rows.keepOnly(listed);
    const byGroup = new Map<string, ParkedEntry[]>();
    for (const entry of listed) byGroup.set(entry.group, [...(byGroup.get(entry.group) ?? []), entry]);
    for (const group of this.groups.keys()) if (!byGroup.has(group)) this.groups.delete(group);
    let looked = 0;
    let moved = 0;
    for (const [group, entries] of byGroup) {
      const now = deps.now();
      let watch = this.groups.get(group);
      if (!watch) {
        watch = {
          backoff: new LookBackoff(deps.config.pollIntervalMs, deps.config.waitLookMaxMs),
          known: new Set(),
          nextLookAt: now,
          followUntil: 0,
        };
        this.groups.set(group, watch);
      }
      const arrived = entries.some((entry) => !watch.known.has(entry.id));
      watch.known = new Set(entries.map((entry) => entry.id));
      if (arrived) {
        watch.backoff.reset();
        watch.nextLookAt = Math.min(watch.nextLookAt, now);
      }
      if (now < watch.nextLookAt) continue;
      looked += 1;
      try {
        const rows = await this.rows.of(entries);
        const done = rows.length === 0 ? 0 : await this.subject.look(rows, `${this.owner}:${randomUUID().slice(0, 8)}`);
        moved += done;
        if (done > 0) {
          // Answers come close together (a batch's deliveries): the rest are looked for every
          // FAST_POLL_MS for a poll interval after each answer, as a job's own watch did.
          watch.backoff.reset();
          watch.followUntil = deps.now() + deps.config.pollIntervalMs;
          watch.nextLookAt = deps.now() + deps.config.fastPollMs;
        } else if (deps.now() + deps.config.fastPollMs <= watch.followUntil) {
          watch.nextLookAt = deps.now() + deps.config.fastPollMs;
        } else {
          watch.nextLookAt = deps.now() + watch.backoff.next();
        }
      } catch (error) {
        deps.logger.warn(`${this.subject.name}: look failed`, { group, error });
        watch.nextLookAt = deps.now() + watch.backoff.next();
      }
      const within = Math.min(...entries.map((entry) => entry.lookWithinMs ?? Infinity));
      watch.nextLookAt = Math.min(watch.nextLookAt, deps.now() + within);
    }
    return { looked, moved };
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
      this.deps.logger.warn(`${this.subject.name}: pass failed`, { error });
    }
  }

  /**
   * The parked rows are listed every poll interval (a row parked by another replica starts its
   * group's looks over), sooner when a group's look is due earlier or this replica parked one.
   */
  private nextPassInMs(): number {
    const now = this.deps.now();
    let next = this.deps.config.pollIntervalMs;
    for (const watch of this.groups.values()) next = Math.min(next, watch.nextLookAt - now);
    if (this.poke) next = Math.min(next, this.deps.config.fastPollMs);
    return Math.max(this.deps.config.fastPollMs, next);
  }
}
