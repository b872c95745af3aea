/**
 * A private PgBouncer in transaction mode in front of one PostgreSQL database, as
 * docs/deployment.md "Connection budget" configures it: the services' DATABASE_URL points here
 * (with DATABASE_POOLER=transaction), migrations go to PostgreSQL directly.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '@starsgate/platform/testing';
import { ManagedProcess } from './managed-process';

/**
 * The session settings the services send at connect when they talk to PostgreSQL directly
 * (database.ts), set by PgBouncer on its server connections instead: the worker's, and the
 * gateway's with its lock_timeout (IDEMPOTENCY_LOCK_TIMEOUT_MS, default 2000) on an entry of its own.
 */
export const PGBOUNCER_CONNECT_QUERIES = {
  worker: 'SET idle_in_transaction_session_timeout = 30000',
  gateway: 'SET idle_in_transaction_session_timeout = 30000; SET lock_timeout = 2000',
} as const;

/** PGBOUNCER_PATH, else `pgbouncer` on PATH or in /usr/sbin (Debian's package); undefined when absent. */
export function pgbouncerBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PGBOUNCER_PATH) return existsSync(env.PGBOUNCER_PATH) ? env.PGBOUNCER_PATH : undefined;
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : undefined;
  }
}

export interface PgBouncerOptions {
  binary: string;
  port: number;
  /** The database behind it, reached directly (postgres://user@host:port/name). */
  upstreamUrl: string;
  /** Server connections per user and database: what PostgreSQL sees at most. */
  poolSize: number;
  maxClientConnections?: number;
}

export class PgBouncer {
  readonly process: ManagedProcess;
  private readonly dir: string;
  private readonly database: string;
  private readonly user: string;

  constructor(private readonly options: PgBouncerOptions) {
    const upstream = new URL(options.upstreamUrl);
    this.database = decodeURIComponent(upstream.pathname.slice(1));
    this.user = decodeURIComponent(upstream.username) || 'postgres';
    this.dir = mkdtempSync(path.join(tmpdir(), 'starsgate-pgbouncer-'));
    const config = path.join(this.dir, 'pgbouncer.ini');
    const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
    writeFileSync(
      config,
      [
        '[databases]',
        ...(['worker', 'gateway'] as const).map(
          (service) =>
            `${this.entry(service)} = host=${upstream.hostname} port=${upstream.port || '5432'} dbname=${this.database}` +
            ` connect_query=${quote(PGBOUNCER_CONNECT_QUERIES[service])}`,
        ),
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${options.port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(this.dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${options.poolSize}`,
        `max_client_conn = ${options.maxClientConnections ?? 1000}`,
        // What PostgreSQL then holds at most: the pool, nothing in reserve.
        'reserve_pool_size = 0',
        '',
      ].join('\n'),
    );
    writeFileSync(path.join(this.dir, 'userlist.txt'), `"${this.user}" ""\n`);
    // PgBouncer refuses to run as root: as root (CI), it drops to the postgres user, who must read these.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const entry of [this.dir, config]) chmodSync(entry, 0o755);
    this.process = new ManagedProcess({
      name: 'pgbouncer',
      kind: 'pgbouncer',
      command: options.binary,
      args: [...(asRoot ? ['-u', 'postgres'] : []), config],
      env: process.env,
      cwd: this.dir,
      logFile: path.join(this.dir, 'pgbouncer.log'),
    });
    if (asRoot) chmodSync(path.join(this.dir, 'userlist.txt'), 0o644);
  }

  /** PgBouncer's database name for the service: the database's own for the worker, `<name>_gateway` for the gateway. */
  private entry(service: 'worker' | 'gateway'): string {
    return service === 'worker' ? this.database : `${this.database}_gateway`;
  }

  /** The service's DATABASE_URL behind the pooler. */
  url(service: 'worker' | 'gateway'): string {
    return `postgres://${encodeURIComponent(this.user)}@127.0.0.1:${this.options.port}/${encodeURIComponent(this.entry(service))}`;
  }

  get logFile(): string {
    return path.join(this.dir, 'pgbouncer.log');
  }

  async start(): Promise<void> {
    await this.process.start();
    await waitFor(() => (this.process.running ? listening(this.options.port) : Promise.reject(exitedError(this))), {
      timeoutMs: 10_000,
      what: `PgBouncer listening on ${this.options.port}`,
    });
  }

  async stop(): Promise<void> {
    await this.process.stop(5_000);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function exitedError(bouncer: PgBouncer): Error {
  return new Error(`pgbouncer exited at start: see ${bouncer.logFile}`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
