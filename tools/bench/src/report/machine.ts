/** What the figures were measured on: the machine, its load, and the versions of what ran. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import Redis from 'ioredis';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  kernel: string;
  /** The orchestrator's own niceness (the benches inherit it). */
  niceness: number;
}

export interface Versions {
  node: string;
  postgres: string;
  redis: string;
  packages: Record<string, string>;
}

export interface LoadSample {
  at: string;
  loadAverage: [number, number, number];
}

const KEY_PACKAGES = [
  'express',
  'ioredis',
  'bullmq',
  'pg',
  'drizzle-orm',
  '@ton/core',
  '@ton/sandbox',
  'autocannon',
  'tsx',
  'typescript',
  'vega',
  'vega-lite',
  '@resvg/resvg-js',
];

function osName(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(release);
    if (pretty) return pretty[1]!;
  } catch {
    // not Linux, or no os-release: fall through
  }
  return `${os.type()} ${os.release()}`;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: osName(),
    kernel: `${os.type()} ${os.release()} ${os.arch()}`,
    niceness: os.getPriority(),
  };
}

export function loadSample(): LoadSample {
  const [one, five, fifteen] = os.loadavg() as [number, number, number];
  return { at: new Date().toISOString(), loadAverage: [one, five, fifteen] };
}

function packageVersion(name: string, root: string): string {
  try {
    return (
      JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'not installed';
  }
}

/** Asks the servers the benches use (TEST_DATABASE_ADMIN_URL, REDIS_URL) for their versions. */
export async function versions(root: string): Promise<Versions> {
  const postgres = await (async () => {
    const client = new Client({
      connectionString: process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    });
    try {
      await client.connect();
      const result = await client.query<{ server_version: string }>('SHOW server_version');
      return result.rows[0]?.server_version ?? 'unknown';
    } catch (error) {
      return `unreachable (${(error as Error).message})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  const redis = await (async () => {
    const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    try {
      await client.connect();
      const info = await client.info('server');
      return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    } catch (error) {
      return `unreachable (${(error as Error).message})`;
    } finally {
      client.disconnect();
    }
  })();
  return {
    node: process.version,
    postgres,
    redis,
    packages: Object.fromEntries(KEY_PACKAGES.map((name) => [name, packageVersion(name, root)])),
  };
}

/** The commit the figures belong to, and whether the tree had local changes. */
export function gitDescription(root: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    // The report's own output is rewritten by every run: it does not make the measured code dirty.
    const dirty = execFileSync(
      'git',
      ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs/benchmarks', ':!docs/benchmarks.md'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    ).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}
