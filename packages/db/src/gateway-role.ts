import { Client } from 'pg';
import type { ServiceRole } from './service-role';

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The `purchases` columns the gateway may change after intake: the lifecycle an accepted checkout
 * BOC (/submitted) and an operator's resolution move. Never what decides a payment (the accepted
 * `payment_request`, the payer's wallet and key, the order's product, amount, username and method,
 * the checkout's transaction, the Fragment order): those are the worker's alone (docs/security.md,
 * attack 18).
 */
export const GATEWAY_PURCHASE_UPDATE_COLUMNS = [
  'status',
  'error',
  'evidence',
  'completed_at',
  'batch_id',
  'normalized_hash',
  'seqno',
  'valid_until',
  'transaction_hash',
  'transaction_lt',
  'attempt',
  'next_run_at',
  'step_started_at',
  'lease_owner',
  'lease_expires_at',
  'version',
  'updated_at',
  'worked_at',
] as const;

/** Row privileges of the gateway's role per table: what intake, /submitted and the operator API write. */
const GATEWAY_TABLE_PRIVILEGES: Record<string, string> = {
  purchases: 'SELECT, INSERT',
  purchase_events: 'SELECT, INSERT',
  // Sealed at intake, destroyed when an operator resolution ends the purchase (fenced-update.ts);
  // the gateway can neither open them nor read them back.
  wallet_secrets: 'INSERT, SELECT (purchase_id, destroyed_at), UPDATE (ciphertext, wrapped_key, destroyed_at)',
  signed_externals: 'SELECT, INSERT',
  // The outbox trigger writes an event for every status change, the gateway's included.
  webhook_events: 'SELECT, INSERT',
  webhook_deliveries: 'SELECT',
  webhook_endpoints: 'SELECT, INSERT, UPDATE',
  admin_actions: 'SELECT, INSERT',
  leases: 'SELECT',
  upstream_format_errors: 'SELECT',
};

/**
 * Creates the gateway's role if missing (LOGIN, nothing else) and grants it only what the gateway
 * writes (GATEWAY_TABLE_PRIVILEGES, and on `purchases` only GATEWAY_PURCHASE_UPDATE_COLUMNS), so a
 * stolen gateway cannot rewrite what the worker will sign. Idempotent, run by the owner after the
 * migrations; a table a later migration adds gets no privilege here until listed.
 */
export async function grantGatewayRole(ownerUrl: string, role: ServiceRole): Promise<void> {
  const client = new Client({ connectionString: ownerUrl, application_name: 'starsgate-migrate' });
  await client.connect();
  try {
    const ident = quoteIdent(role.name);
    const owner = (await client.query<{ owner: string }>('SELECT current_user AS owner')).rows[0]!.owner;
    if (owner === role.name) throw new Error('the gateway role must not be the role that owns the tables');
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role.name]);
    if (exists.rowCount === 0) {
      const password =
        role.password === undefined
          ? ''
          : ` PASSWORD ${(await client.query<{ q: string }>('SELECT quote_literal($1) AS q', [role.password])).rows[0]!.q}`;
      await client.query(`CREATE ROLE ${ident} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT${password}`);
    }
    const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
    await client.query('BEGIN');
    await client.query(`GRANT CONNECT ON DATABASE ${quoteIdent(database)} TO ${ident}`);
    await client.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    await client.query(`REVOKE CREATE ON SCHEMA public FROM ${ident}`);
    await client.query(`GRANT USAGE ON SCHEMA public TO ${ident}`);
    await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${ident}`);
    for (const [table, privileges] of Object.entries(GATEWAY_TABLE_PRIVILEGES))
      await client.query(`GRANT ${privileges} ON ${quoteIdent(table)} TO ${ident}`);
    await client.query(
      `GRANT UPDATE (${GATEWAY_PURCHASE_UPDATE_COLUMNS.map(quoteIdent).join(', ')}) ON purchases TO ${ident}`,
    );
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${ident}`);
    await client.query(`GRANT USAGE ON SCHEMA drizzle TO ${ident}`);
    await client.query(`GRANT SELECT ON drizzle.__drizzle_migrations TO ${ident}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
