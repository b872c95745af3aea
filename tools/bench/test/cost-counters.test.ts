/**
 * bench:cost's counters against the real things: BullMQ jobs added, read from a queue's event
 * stream (a delayed job counts, a duplicate id does not, a queue first used after counting began is
 * still found), and rows written per table from pg_stat_user_tables once the writer has closed.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { closeQueue, createQueue } from '@starsgate/platform';
import { createTestDatabase } from '@starsgate/db/testing';
import { eventTotal, JobEventCounter } from '../src/support/job-events';
import { tableWrites, totalWrites, writesBetween } from '../src/support/table-writes';

const REDIS_URL = process.env.REDIS_URL!;

describe("bench:cost's counters", () => {
  it('counts the jobs BullMQ stores, per queue, and not a duplicate id', async () => {
    const prefix = `cost-counter-${randomBytes(4).toString('hex')}`;
    const first = createQueue('first', {}, REDIS_URL, prefix);
    const later = createQueue('later', {}, REDIS_URL, prefix);
    try {
      await first.add('a', {});
      const counter = await JobEventCounter.start(REDIS_URL, prefix);
      await first.add('b', {}, { delay: 60_000 });
      await first.add('c', {}, { jobId: 'same' });
      await first.add('c', {}, { jobId: 'same' });
      await later.addBulk([
        { name: 'd', data: {} },
        { name: 'e', data: {} },
      ]);
      const counts = await counter.stop();
      expect(counts[`${prefix}:first`]).toMatchObject({ added: 2, duplicated: 1 });
      expect(counts[`${prefix}:later`]).toMatchObject({ added: 2 });
      expect(eventTotal(counts, 'added')).toBe(4);
    } finally {
      await first.obliterate({ force: true });
      await later.obliterate({ force: true });
      await Promise.all([closeQueue(first), closeQueue(later)]);
    }
  });

  it('counts the rows a closed connection inserted, updated (HOT apart) and deleted, per table', async () => {
    const database = await createTestDatabase();
    try {
      const setup = new Client({ connectionString: database.url });
      await setup.connect();
      await setup.query('CREATE TABLE bench_counted (id int PRIMARY KEY, note text)');
      await setup.end();
      const before = await tableWrites(database.url);
      const writer = new Client({ connectionString: database.url });
      await writer.connect();
      await writer.query("INSERT INTO bench_counted SELECT g, 'x' FROM generate_series(1, 5) g");
      await writer.query("UPDATE bench_counted SET note = 'y' WHERE id <= 3");
      await writer.query('DELETE FROM bench_counted WHERE id = 5');
      await writer.end();
      let writes = writesBetween(before, await tableWrites(database.url));
      // A backend reports its counts as it exits, which the server finishes after the client has gone.
      for (let i = 0; i < 50 && !writes.bench_counted; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        writes = writesBetween(before, await tableWrites(database.url));
      }
      expect(writes.bench_counted).toMatchObject({ inserted: 5, updated: 3, deleted: 1 });
      expect(writes.bench_counted!.hotUpdated).toBeLessThanOrEqual(3);
      expect(totalWrites(writes).inserted).toBeGreaterThanOrEqual(5);
    } finally {
      await database.drop();
    }
  });
});
