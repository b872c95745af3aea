/**
 * No seed anywhere it must not be: the exact seed strings the driver sent and their obvious
 * encodings (normalized words, URL, Base64, hex; for a Base64 key its raw bytes as hex and
 * base64url) are searched in every process log file, every Redis key and value (SCAN over all
 * keys, every type read), and every text-like column of every table (text, varchar, json, jsonb,
 * arrays as text; bytea as hex and Base64).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Redis from 'ioredis';
import type pg from 'pg';

export interface SeedLeak {
  where: string;
  wallet: string;
  encoding: string;
}

export interface SeedLeakReport {
  needles: number;
  logFiles: number;
  logBytes: number;
  redisKeys: number;
  columns: number;
  cells: number;
  leaks: SeedLeak[];
}

interface Needle {
  wallet: string;
  encoding: string;
  text: string;
}

export function needlesOf(wallets: Array<{ id: string; seed: string; format: string }>): Needle[] {
  const out: Needle[] = [];
  for (const w of wallets) {
    const add = (encoding: string, text: string) => out.push({ wallet: w.id, encoding, text });
    add('as sent', w.seed);
    add('URL-encoded', encodeURIComponent(w.seed));
    add('Base64 of the text', Buffer.from(w.seed, 'utf8').toString('base64'));
    add('hex of the text', Buffer.from(w.seed, 'utf8').toString('hex'));
    if (w.format === 'base64_key') {
      const bytes = Buffer.from(w.seed, 'base64');
      add('key bytes as hex', bytes.toString('hex'));
      add('key bytes as base64url', bytes.toString('base64url'));
    } else {
      const words = w.seed.trim().toLowerCase().split(/\s+/);
      add('normalized words', words.join(' '));
      add('words joined with +', words.join('+'));
      add('words joined with ,', words.join(','));
      add('words as a JSON array', JSON.stringify(words));
      add('first four words', words.slice(0, 4).join(' '));
    }
  }
  return out;
}

function search(haystack: string, needles: Needle[], where: string, leaks: SeedLeak[]): void {
  if (haystack.length < 8) return;
  const lower = haystack.toLowerCase();
  for (const needle of needles) {
    // hex may be written in either case; everything else is matched exactly
    const found = needle.encoding.includes('hex')
      ? lower.includes(needle.text.toLowerCase())
      : haystack.includes(needle.text);
    if (found) leaks.push({ where, wallet: needle.wallet, encoding: needle.encoding });
  }
}

async function scanRedis(url: string, needles: Needle[], leaks: SeedLeak[]): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  let keys = 0;
  try {
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) {
        keys += 1;
        search(key, needles, `redis key ${key}`, leaks);
        const type = await redis.type(key);
        let values: string[] = [];
        if (type === 'string') values = [(await redis.get(key)) ?? ''];
        else if (type === 'hash') values = Object.entries(await redis.hgetall(key)).flat();
        else if (type === 'list') values = await redis.lrange(key, 0, -1);
        else if (type === 'set') values = await redis.smembers(key);
        else if (type === 'zset') values = await redis.zrange(key, 0, -1);
        else if (type === 'stream')
          values = (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
        search(values.join('\n'), needles, `redis ${type} ${key}`, leaks);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return keys;
}

async function scanDatabase(
  pool: pg.Pool,
  needles: Needle[],
  leaks: SeedLeak[],
): Promise<{ columns: number; cells: number }> {
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')`,
  );
  let cells = 0;
  for (const column of columns) {
    const ident = `"${column.table_name}"."${column.column_name}"`;
    const select =
      column.data_type === 'bytea'
        ? `SELECT encode(${ident}, 'hex') || ' ' || replace(encode(${ident}, 'base64'), E'\\n', '') AS v`
        : `SELECT ${ident}::text AS v`;
    const { rows } = await pool.query<{ v: string }>(
      `${select} FROM "${column.table_name}" WHERE ${ident} IS NOT NULL`,
    );
    cells += rows.length;
    for (const row of rows) search(row.v, needles, `column ${column.table_name}.${column.column_name}`, leaks);
  }
  return { columns: columns.length, cells };
}

export async function checkSeedLeaks(args: {
  wallets: Array<{ id: string; seed: string; format: string }>;
  logDir: string;
  redisUrl: string;
  pool: pg.Pool;
}): Promise<SeedLeakReport> {
  const needles = needlesOf(args.wallets);
  const leaks: SeedLeak[] = [];
  let logBytes = 0;
  const files = readdirSync(args.logDir).filter((f) => f.endsWith('.log'));
  for (const file of files) {
    const text = readFileSync(path.join(args.logDir, file), 'utf8');
    logBytes += text.length;
    search(text, needles, `log ${file}`, leaks);
  }
  const redisKeys = await scanRedis(args.redisUrl, needles, leaks);
  const { columns, cells } = await scanDatabase(args.pool, needles, leaks);
  // One line per place and encoding is enough to act on.
  const unique = new Map(leaks.map((l) => [`${l.where}|${l.wallet}|${l.encoding}`, l]));
  return {
    needles: needles.length,
    logFiles: files.length,
    logBytes,
    redisKeys,
    columns,
    cells,
    leaks: [...unique.values()],
  };
}
