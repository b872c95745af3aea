import path from 'node:path';
import { loadEnvFile } from '@starsgate/config';
import { migrateDatabase } from '../migrate';
import { grantGatewayRole } from '../gateway-role';
import { grantServiceRole, serviceRoleOf } from '../service-role';
import { loadMigrateConfig } from './migrate-config';

/**
 * DATABASE_URL: the owner role (creates and alters the tables). SERVICE_DATABASE_URL, when set:
 * the DML-only role the gateway and the worker connect as, created if missing and granted rows.
 * GATEWAY_DATABASE_URL, when set: the gateway's own, narrower role (gateway-role.ts).
 */
async function run(): Promise<void> {
  loadEnvFile(path.resolve('.env'));
  const config = loadMigrateConfig();
  await migrateDatabase(config.databaseUrl);
  process.stdout.write('migrations applied\n');
  if (config.serviceDatabaseUrl) {
    const role = serviceRoleOf(config.serviceDatabaseUrl);
    await grantServiceRole(config.databaseUrl, role);
    process.stdout.write(`service role ${role.name} granted row privileges\n`);
  }
  if (config.gatewayDatabaseUrl) {
    const role = serviceRoleOf(config.gatewayDatabaseUrl);
    await grantGatewayRole(config.databaseUrl, role);
    process.stdout.write(`gateway role ${role.name} granted what the gateway writes\n`);
  }
}

run().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
