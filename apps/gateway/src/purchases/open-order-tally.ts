import type { OpenOrderCounts, OpenOrders } from '@starsgate/db';

/** How long a reading of the open-order counts serves intake before PostgreSQL is asked again. */
export const OPEN_ORDER_READING_MAX_AGE_MS = 500;

/** Readings kept per payer before the stale ones are dropped. */
const MAX_PAYER_READINGS = 10_000;

interface Reading {
  /** What PostgreSQL counted. */
  counted: number;
  /** Orders this process let through since (each counted as stored: an upper bound). */
  passed: number;
  at: number;
}

/**
 * The intake caps' counts without a count per request: each POST counting up to OPEN_ORDERS_TOTAL
 * rows made intake's cost grow with the backlog (bench:gateway fell from ~800 to ~350 POSTs a
 * second as queued rows piled up). A reading serves for OPEN_ORDER_READING_MAX_AGE_MS, plus every
 * order this process let through since it was taken, so within one process the counts are never
 * below the truth; other gateway processes' orders show at the next reading. A count at or past a
 * cap is always read again before intake refuses, so a stale reading never refuses an order.
 */
export class OpenOrderTally {
  private total?: Reading;
  private readonly byPayers = new Map<string, Reading>();

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
    if (isFresh(total, at) && (!key || isFresh(payer, at))) {
      const counts = { payer: payer ? payer.counted + payer.passed : 0, total: total.counted + total.passed };
      if (counts.payer < caps.perPayer && counts.total < caps.total) return counts;
    }
    const read = await this.openOrders.count(payers, caps);
    this.total = { counted: read.total, passed: 0, at };
    if (key) this.remember(key, { counted: read.payer, passed: 0, at });
    return read;
  }

  /** An order got past the caps: counted until the next reading. */
  passed(payers: readonly string[]): void {
    if (this.total) this.total.passed += 1;
    const key = payersKey(payers);
    const payer = key ? this.byPayers.get(key) : undefined;
    if (payer) payer.passed += 1;
  }

  private remember(key: string, reading: Reading): void {
    if (this.byPayers.size >= MAX_PAYER_READINGS)
      for (const [stored, old] of this.byPayers) if (!isFresh(old, reading.at)) this.byPayers.delete(stored);
    this.byPayers.set(key, reading);
  }
}

function isFresh(reading: Reading | undefined, at: number): reading is Reading {
  return reading !== undefined && at - reading.at < OPEN_ORDER_READING_MAX_AGE_MS && at >= reading.at;
}

function payersKey(payers: readonly string[]): string {
  return payers.length <= 1 ? (payers[0] ?? '') : [...payers].sort().join(',');
}
