import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import { MIGRATIONS_FOLDER, parseKeyRing } from '@starsgate/db';
import { fail, guarded, ok, warn, type CheckResult } from './check';

/** `STARSGATE_SECRET_KEY`: present and well formed (`id:base64 of 32 bytes`, comma-separated). */
export function checkSecretKey(env: Record<string, string | undefined>): CheckResult {
  const item = 'STARSGATE_SECRET_KEY';
  const value = env.STARSGATE_SECRET_KEY;
  const action = 'Set it to "k1:<base64 of 32 random bytes>" (openssl rand -base64 32); keep old keys listed after it.';
  if (!value) {
    return env.NODE_ENV === 'production'
      ? fail(item, 'missing', action)
      : warn(item, 'missing: a development key is generated into .data/', action);
  }
  try {
    const ring = parseKeyRing(value);
    return ok(item, `well formed, primary key id ${ring.primaryId}`);
  } catch (error) {
    return fail(item, `malformed: ${error instanceof Error ? error.message : String(error)}`, action);
  }
}

/** PostgreSQL reachable, and every migration of this release applied. */
export function checkPostgres(databaseUrl: string): Promise<CheckResult[]> {
  return guarded('PostgreSQL', 'Check DATABASE_URL and that the server accepts connections.', async () => {
    const client = new Client({ connectionString: databaseUrl, application_name: 'starsgate-doctor' });
    await client.connect();
    try {
      const started = Date.now();
      await client.query('SELECT 1');
      const results = [ok('PostgreSQL', `reachable (${Date.now() - started} ms)`)];
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: unknown[];
      };
      const applied = await client
        .query<{ count: string }>('SELECT count(*) AS count FROM drizzle.__drizzle_migrations')
        .then((r) => Number(r.rows[0]!.count))
        .catch(() => 0);
      const expected = journal.entries.length;
      results.push(
        applied >= expected
          ? ok('migrations', `${applied} of ${expected} applied`)
          : fail(
              'migrations',
              `${applied} of ${expected} applied`,
              'Run `npm run migrate` (the gateway and worker also apply them at start).',
            ),
      );
      return results;
    } finally {
      await client.end();
    }
  });
}

/** Redis reachable with `maxmemory-policy noeviction` (an evicted job key would lose work). */
export function checkRedis(redisUrl: string): Promise<CheckResult[]> {
  return guarded('Redis', 'Check REDIS_URL and that the server accepts connections.', async () => {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    try {
      await redis.connect();
      const info = await redis.info('memory');
      const policy = /maxmemory_policy:(\S+)/.exec(info)?.[1];
      if (policy === undefined)
        return [warn('Redis', 'reachable; eviction policy not reported', 'Make sure maxmemory-policy is noeviction.')];
      return policy === 'noeviction'
        ? [ok('Redis', 'reachable, maxmemory-policy noeviction')]
        : [
            fail(
              'Redis',
              `maxmemory-policy ${policy}`,
              'Set maxmemory-policy noeviction: BullMQ must never lose keys.',
            ),
          ];
    } finally {
      redis.disconnect();
    }
  });
}
