import { migrateDatabase } from '../migrate';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/starsgate';
migrateDatabase(url)
  .then(() => {
    process.stdout.write('migrations applied\n');
  })
  .catch((error: unknown) => {
    process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
