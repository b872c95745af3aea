import { migrateDatabase } from '../migrate';
import { grantServiceRole, serviceRoleOf } from '../service-role';

/**
 * DATABASE_URL: the owner role (creates and alters the tables). SERVICE_DATABASE_URL, when set:
 * the DML-only role the gateway and the worker connect as, created if missing and granted rows.
 */
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/starsgate';
const serviceUrl = process.env.SERVICE_DATABASE_URL?.trim();

async function run(): Promise<void> {
  await migrateDatabase(url);
  process.stdout.write('migrations applied\n');
  if (!serviceUrl) return;
  const role = serviceRoleOf(serviceUrl);
  await grantServiceRole(url, role);
  process.stdout.write(`service role ${role.name} granted row privileges\n`);
}

run().catch((error: unknown) => {
  process.stderr.write(`migration failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
