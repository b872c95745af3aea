import type { Pool } from 'pg';
import type { Redis } from 'ioredis';

/** Every key, string and hash/list/set/zset/stream member Redis holds: a secret must appear in none. */
export async function dumpRedis(redis: Redis): Promise<string> {
  const keys = await redis.keys('*');
  const parts: string[] = [...keys];
  for (const key of keys) {
    const type = await redis.type(key);
    if (type === 'string') parts.push((await redis.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
  }
  return parts.join('\n');
}

/** Every column of every table, as text. */
export async function dumpDatabase(pool: Pool): Promise<string> {
  const tables = await pool.query(
    "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema IN ('public', 'drizzle')",
  );
  const parts: string[] = [];
  for (const { table_schema: schema, table_name: name } of tables.rows) {
    const rows = await pool.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`);
    parts.push(...rows.rows.map((row) => row.row));
  }
  return parts.join('\n');
}
