import { Client } from 'pg';

/**
 * Privileges of the role the gateway and the worker connect as: rows only. No DDL (they own
 * nothing, so they can neither ALTER nor DROP a table), no TRUNCATE, no CREATE in the schema;
 * migrations run as the owner (docs/security.md, attack 13).
 */
const ROW_PRIVILEGES = 'SELECT, INSERT, UPDATE, DELETE';

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A role named in a URL: what `grantServiceRole` creates (if missing) and grants to. */
export interface ServiceRole {
  name: string;
  /** Set only when the role is created; an existing role keeps its password. */
  password?: string;
}

/** The role and password in a service DATABASE_URL (`postgres://role:password@host/db`). */
export function serviceRoleOf(url: string): ServiceRole {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.username);
  if (!name) throw new Error('SERVICE_DATABASE_URL must name the service role (postgres://role:password@host/db)');
  const password = decodeURIComponent(parsed.password);
  return password ? { name, password } : { name };
}

/**
 * Creates the service role if it does not exist (LOGIN, no other attribute) and grants it the
 * row privileges on every table and sequence of `public`, now and (ALTER DEFAULT PRIVILEGES) for
 * tables later migrations create. Idempotent; run by the owner after the migrations. Also lets
 * the role read the applied migrations, which the apps' readiness checks.
 */
export async function grantServiceRole(ownerUrl: string, role: ServiceRole): Promise<void> {
  await grantRole(ownerUrl, role, 'service', async (client, ident) => {
    await client.query(`GRANT ${ROW_PRIVILEGES} ON ALL TABLES IN SCHEMA public TO ${ident}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${ident}`);
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ${ROW_PRIVILEGES} ON TABLES TO ${ident}`);
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${ident}`);
  });
}

/**
 * What every role of the apps gets, as the owner in one transaction: created if missing (LOGIN,
 * nothing else), connect and schema usage but no CREATE, every table privilege revoked before
 * `grantTables` grants its own, and a read of the applied migrations.
 */
export async function grantRole(
  ownerUrl: string,
  role: ServiceRole,
  kind: string,
  grantTables: (client: Client, ident: string) => Promise<void>,
): Promise<void> {
  const client = new Client({ connectionString: ownerUrl, application_name: 'starsgate-migrate' });
  await client.connect();
  try {
    const ident = quoteIdent(role.name);
    const owner = (await client.query<{ owner: string }>('SELECT current_user AS owner')).rows[0]!.owner;
    if (owner === role.name) throw new Error(`the ${kind} role must not be the role that owns the tables`);
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
    await grantTables(client, ident);
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
