import type { IntakeResult, PurchaseIntake, PurchaseRepository } from '@starsgate/db';
import { MicroBatcher } from '../batching/micro-batcher';

/**
 * Group commit for intake: the purchases of concurrent requests are stored by one statement in
 * one transaction (PurchaseRepository.insertManyOrGetByKey), so PostgreSQL pays one round trip
 * and one WAL flush per batch instead of per request. Each caller still gets its own outcome,
 * and only after the batch has committed.
 */
export class PurchaseIntakeBatcher {
  private readonly batcher: MicroBatcher<PurchaseIntake, IntakeResult>;

  constructor(purchases: PurchaseRepository, options = { maxBatchSize: 128, maxInFlight: 4 }) {
    this.batcher = new MicroBatcher((intakes) => purchases.insertManyOrGetByKey(intakes), options);
  }

  insertOrGetByKey(
    row: PurchaseIntake['row'],
    buildSecret: PurchaseIntake['buildSecret'],
    event: PurchaseIntake['event'],
  ): Promise<IntakeResult> {
    return this.batcher.submit({ row, buildSecret, event });
  }
}
