/**
 * Run by test/test-databases-dropped.test.ts in a jest of its own: creates a throw-away database,
 * closes its pool and never drops it, and says its name in LEFTOVER_DATABASE_FILE.
 */
import { writeFileSync } from 'node:fs';
import { createTestDatabase } from '@starsgate/db/testing';

test('leaves its database behind', async () => {
  const database = await createTestDatabase();
  await database.close();
  writeFileSync(process.env.LEFTOVER_DATABASE_FILE!, new URL(database.url).pathname.slice(1));
});
