/**
 * A private PostgreSQL cluster for one kind of run, made with Debian's postgresql-common tools
 * (`pg_createcluster`, `pg_ctlcluster`) so it can be restarted without touching the main cluster
 * that other tests share. Needs root (or the postgres user), as on the CI image.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface ClusterOptions {
  /** Cluster name, e.g. `starsgate_chaos`. */
  name: string;
  port: number;
  /** Major version; default: the newest under /etc/postgresql. */
  version?: string;
  maxConnections?: number;
}

export class PostgresCluster {
  readonly version: string;

  constructor(private readonly options: ClusterOptions) {
    this.version = options.version ?? newestInstalledVersion();
  }

  get name(): string {
    return this.options.name;
  }

  get port(): number {
    return this.options.port;
  }

  urlFor(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private async status(): Promise<'missing' | 'online' | 'down'> {
    const { stdout } = await run('pg_lsclusters', ['--no-header']);
    const line = stdout
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((cols) => cols[0] === this.version && cols[1] === this.name);
    if (!line) return 'missing';
    if (line[2] !== String(this.port))
      throw new Error(`cluster ${this.version}/${this.name} exists on port ${line[2]}, not ${this.port}`);
    return line[3] === 'online' ? 'online' : 'down';
  }

  /** Creates the cluster (trust auth on local connections) if missing, and starts it if down. */
  async ensureRunning(): Promise<void> {
    const status = await this.status();
    if (status === 'missing') {
      await run('pg_createcluster', [
        this.version,
        this.name,
        '--port',
        String(this.port),
        '--start-conf',
        'manual',
        '-o',
        `max_connections=${this.options.maxConnections ?? 300}`,
        '--',
        '--auth=trust',
      ]);
    }
    if (status !== 'online') await run('pg_ctlcluster', [this.version, this.name, 'start']);
  }

  /** `pg_ctlcluster … restart`: every connection is cut, the server is back when this returns. */
  async restart(): Promise<void> {
    await run('pg_ctlcluster', [this.version, this.name, 'restart'], { timeout: 120_000 });
  }

  async stop(): Promise<void> {
    await run('pg_ctlcluster', [this.version, this.name, 'stop']);
  }

  private async admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.urlFor('postgres') });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  /** Drops (if present) and creates an empty database; returns its URL. */
  async freshDatabase(database: string): Promise<string> {
    if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unsafe database name ${database}`);
    await this.admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${database}`);
    });
    return this.urlFor(database);
  }

  async dropDatabase(database: string): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unsafe database name ${database}`);
    await this.admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}

function newestInstalledVersion(): string {
  const versions = readdirSync('/etc/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('no PostgreSQL under /etc/postgresql');
  return versions[0];
}
