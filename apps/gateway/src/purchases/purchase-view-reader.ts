import type { PurchaseRepository, PurchaseViewRow } from '@starsgate/db';
import { MicroBatcher } from '../batching/micro-batcher';

/**
 * Status reads of concurrent requests share one `id = ANY(...)` query. A read is sent only after
 * it arrived, so a client that got its 202 always sees its committed purchase.
 */
export class PurchaseViewReader {
  private readonly batcher: MicroBatcher<string, PurchaseViewRow | undefined>;

  constructor(purchases: PurchaseRepository, options = { maxBatchSize: 256, maxInFlight: 4 }) {
    this.batcher = new MicroBatcher(async (ids) => {
      const rows = new Map((await purchases.findViewsByIds([...new Set(ids)])).map((row) => [row.id, row]));
      return ids.map((id) => ({ ok: true as const, value: rows.get(id) }));
    }, options);
  }

  findViewById(id: string): Promise<PurchaseViewRow | undefined> {
    return this.batcher.submit(id);
  }
}
