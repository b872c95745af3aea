/** What the order system knows from the service's answers (the checks compare it with the database). */
export class Ledger {
  /** idempotency key → purchase_id / checkout_id from a 202. */
  readonly purchases = new Map<string, string>();
  readonly checkouts = new Map<string, string>();
  /** A key answered with two different ids: an idempotency violation. */
  readonly idMismatches: string[] = [];
  /** Final 4xx answers by code (what the service refused, and why). */
  readonly refusals: Record<string, number> = {};
  /** Logical requests given up after every retry. */
  unsent = 0;
  /** Same request sent twice at once (a double click): both must name one purchase. */
  doubleSends = 0;
  /** Checkouts: how the payer paid. */
  readonly payments = { submitted: 0, broadcastAndSubmitted: 0, broadcastOnly: 0, abandoned: 0, notPrepared: 0 };

  accept(kind: 'purchase' | 'checkout', key: string, id: string): void {
    const map = kind === 'purchase' ? this.purchases : this.checkouts;
    const known = map.get(key);
    if (known !== undefined && known !== id) this.idMismatches.push(`${key}: ${known} then ${id}`);
    if (known === undefined) map.set(key, id);
  }

  refuse(code: string): void {
    this.refusals[code] = (this.refusals[code] ?? 0) + 1;
  }
}
