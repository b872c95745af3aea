/**
 * CPU time and resident memory of processes, from /proc (Linux), for the cost bench: the gateway
 * and the worker by pid, PostgreSQL by the backends serving them (DatabaseBackendCpu) and as its
 * whole cluster (postmaster, every backend, and the backends that already exited, whose time the
 * kernel adds to the postmaster's cutime/cstime), Redis by the pid it reports itself.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';

const CLOCK_TICKS_PER_SECOND = 100;

interface StatFields {
  ppid: number;
  /** utime + stime, ms. */
  ownMs: number;
  /** cutime + cstime of reaped children, ms. */
  childrenMs: number;
}

function readStat(pid: number): StatFields | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces): state is field 3, so index 0 here.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (index: number) => Number(fields[index]);
  return {
    ppid: ticks(1),
    ownMs: ((ticks(11) + ticks(12)) * 1000) / CLOCK_TICKS_PER_SECOND,
    childrenMs: ((ticks(13) + ticks(14)) * 1000) / CLOCK_TICKS_PER_SECOND,
  };
}

/** utime + stime of one process, ms. */
export function processCpuMs(pid: number): number {
  return readStat(pid)?.ownMs ?? Number.NaN;
}

/** A process and its children, live and reaped, ms. */
export function processTreeCpuMs(pid: number): number {
  const root = readStat(pid);
  if (!root) return Number.NaN;
  let total = root.ownMs + root.childrenMs;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = readStat(Number(entry));
    if (child?.ppid === pid) total += child.ownMs + child.childrenMs;
  }
  return total;
}

export function residentMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The postmaster's pid of the cluster behind `databaseUrl` (first line of its postmaster.pid). */
export async function postmasterPid(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ setting: string }>(
      "SELECT setting FROM pg_settings WHERE name = 'data_directory'",
    );
    const pidFile = readFileSync(`${rows[0]!.setting}/postmaster.pid`, 'utf8');
    return Number(pidFile.split('\n')[0]);
  } finally {
    await client.end();
  }
}

export async function redisServerPid(redisUrl: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    const info = await redis.info('server');
    return Number(/^process_id:(\d+)/m.exec(info)?.[1]);
  } finally {
    redis.disconnect();
  }
}

/**
 * The CPU of the PostgreSQL backends that serve the given application names in one database, ms,
 * summed over every backend seen since the tracker started: other databases of a shared cluster,
 * and the bench's own queries, stay out. Sample it often (a backend that exits between two samples
 * loses its time since the last one); the pool connections of a gateway and a worker live long.
 */
export class DatabaseBackendCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();

  private constructor(
    private readonly client: Client,
    private readonly database: string,
    private readonly applications: string[],
  ) {}

  static async start(databaseUrl: string, applications: string[]): Promise<DatabaseBackendCpu> {
    const url = new URL(databaseUrl);
    const database = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const client = new Client({ connectionString: url.toString(), application_name: 'bench-cost-sampler' });
    await client.connect();
    const tracker = new DatabaseBackendCpu(client, database, applications);
    await tracker.sample(true);
    return tracker;
  }

  /** `baseline`: the backends alive now count from their present time, later ones from zero. */
  async sample(baseline = false): Promise<void> {
    const { rows } = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = ANY($2)',
      [this.database, this.applications],
    );
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (Number.isNaN(ms)) continue;
      this.last.set(pid, ms);
      // A backend born during the run counts from zero: its start-up is this run's work.
      if (!this.first.has(pid)) this.first.set(pid, baseline ? ms : 0);
    }
  }

  /** CPU of the tracked backends since start(), ms. */
  usedMs(): number {
    let total = 0;
    for (const [pid, ms] of this.last) total += ms - (this.first.get(pid) ?? 0);
    return total;
  }

  async stop(): Promise<void> {
    await this.client.end();
  }
}
