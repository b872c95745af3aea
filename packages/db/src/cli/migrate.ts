import path from 'node:path';
import { loadEnvFile } from '@starsgate/platform/environment';
import { migrateDatabase } from '../migrate';
import { loadMigrateConfig } from './migrate-config';

Promise.resolve()
  .then(() => {
    loadEnvFile(path.resolve('.env'));
    return migrateDatabase(loadMigrateConfig().databaseUrl);
  })
  .then(() => {
    process.stdout.write('migrations applied\n');
  })
  .catch((error: unknown) => {
    process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
