import { isPayerKeyIdentity, type OpenOrderCounts, type OpenOrders } from '@starsgate/db';

/** How long a reading of the open-order counts serves intake before PostgreSQL is asked again. */
export const OPEN_ORDER_READING_MAX_AGE_MS = 500;

/** A reading this many times older still serves while a newer one is read in the background. */
const STALE_READING_FACTOR = 4;

/** Readings kept per payer before the stale ones are dropped. */
const MAX_PAYER_READINGS = 10_000;

interface Reading {
  /** What PostgreSQL counted. */
  counted: number;
  /**
   * This process's pass count (see `passes`) when the reading's query was sent: every order let
   * through since is counted on top (as stored: an upper bound), those let through while the query
   * ran included, since the query may have missed them.
   */
  passesAtRead: number;
  at: number;
}

/**
 * The intake caps' counts without a count per request: each POST counting up to OPEN_ORDERS_TOTAL
 * rows made intake's cost grow with the backlog (bench:gateway fell from ~800 to ~350 POSTs a
 * second as queued rows piled up). A reading serves for OPEN_ORDER_READING_MAX_AGE_MS, plus every
 * order this process let through since it was taken, so within one process the counts lag the
 * truth by no more than the orders still being stored (as a count per request did); other gateway
 * processes' orders show at the next reading. A reading up to
 * STALE_READING_FACTOR times older still serves while one read replaces it in the background
 * (requests never queue behind it); concurrent reads of the same payers are one query. A count at
 * or past a cap is always read again before intake refuses, so a stale reading never refuses.
 */
export class OpenOrderTally {
  private total?: Reading;
  private readonly byPayers = new Map<string, Reading>();
  /** Orders this process let through, ever: in total and per payer key. */
  private totalPasses = 0;
  private readonly payerPasses = new Map<string, number>();
  private readonly reads = new Map<string, Promise<OpenOrderCounts>>();

  constructor(
    private readonly openOrders: Pick<OpenOrders, 'count'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts no lower than the last reading plus what passed since; read afresh when stale or at a cap. */
  async count(payers: readonly string[], caps: { perPayer: number; total: number }): Promise<OpenOrderCounts> {
    const key = payersKey(payers);
    const at = this.now();
    const total = this.total;
    const payer = key ? this.byPayers.get(key) : undefined;
    const age = Math.max(ageOf(total, at), key ? ageOf(payer, at) : 0);
    if (total && (!key || payer) && age < STALE_READING_FACTOR * OPEN_ORDER_READING_MAX_AGE_MS) {
      const counts = {
        payer: payer ? payer.counted + this.passesOf(key) - payer.passesAtRead : 0,
        total: total.counted + this.totalPasses - total.passesAtRead,
      };
      if (counts.payer < caps.perPayer && counts.total < caps.total) {
        if (age >= OPEN_ORDER_READING_MAX_AGE_MS) this.read(key, payers, caps).catch(() => this.forget(key));
        return counts;
      }
    }
    return this.read(key, payers, caps);
  }

  /** An order got past the caps: counted until the next reading. */
  passed(payers: readonly string[]): void {
    this.totalPasses += 1;
    const key = payersKey(payers);
    if (key) this.payerPasses.set(key, this.passesOf(key) + 1);
  }

  private passesOf(key: string): number {
    return this.payerPasses.get(key) ?? 0;
  }

  /** One query per payer set at a time; its answer becomes the readings. */
  private read(
    key: string,
    payers: readonly string[],
    caps: { perPayer: number; total: number },
  ): Promise<OpenOrderCounts> {
    let reading = this.reads.get(key);
    if (!reading) {
      const at = this.now();
      const totalAtRead = this.totalPasses;
      const payerAtRead = this.passesOf(key);
      reading = this.openOrders
        .count(payers, caps)
        .then((read) => {
          this.total = { counted: read.total, passesAtRead: totalAtRead, at };
          if (key) this.remember(key, { counted: read.payer, passesAtRead: payerAtRead, at });
          return read;
        })
        .finally(() => this.reads.delete(key));
      this.reads.set(key, reading);
    }
    return reading;
  }

  /** A background read failed: the next request reads (and reports the failure) itself. */
  private forget(key: string): void {
    this.total = undefined;
    if (key) this.byPayers.delete(key);
  }

  private remember(key: string, reading: Reading): void {
    if (this.byPayers.size >= MAX_PAYER_READINGS)
      for (const [stored, old] of this.byPayers)
        if (ageOf(old, reading.at) >= STALE_READING_FACTOR * OPEN_ORDER_READING_MAX_AGE_MS && !this.reads.has(stored)) {
          this.byPayers.delete(stored);
          this.payerPasses.delete(stored);
        }
    this.byPayers.set(key, reading);
  }
}

function ageOf(reading: Reading | undefined, at: number): number {
  return reading === undefined || at < reading.at ? Infinity : at - reading.at;
}

function payersKey(payers: readonly string[]): string {
  // A seed's orders share one reading whichever of its wallets each names: its key counts them all.
  const seedKey = payers.find(isPayerKeyIdentity);
  if (seedKey) return seedKey;
  return payers.length <= 1 ? (payers[0] ?? '') : [...payers].sort().join(',');
}
