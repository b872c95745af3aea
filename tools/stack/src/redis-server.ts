/**
 * A private redis-server for one run (its own port, no persistence), so flushing or restarting it
 * disturbs nobody else's Redis.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sleep } from '@starsgate/platform/testing';
import { ManagedProcess } from './managed-process';

const run = promisify(execFile);

export class RedisServer {
  readonly process: ManagedProcess;

  constructor(
    readonly port: number,
    logFile: string,
    cwd: string,
  ) {
    this.process = new ManagedProcess({
      name: 'redis',
      kind: 'redis',
      command: 'redis-server',
      args: [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
      ],
      env: process.env,
      cwd,
      logFile,
    });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async cli(...args: string[]): Promise<string> {
    const { stdout } = await run('redis-cli', ['-p', String(this.port), ...args], { timeout: 10_000 });
    return stdout.trim();
  }

  async start(): Promise<void> {
    await this.process.start();
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        if ((await this.cli('ping')) === 'PONG') return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not answer PING`);
      await sleep(100);
    }
  }

  /** FLUSHALL: every key of every database is gone at once. */
  async flushAll(): Promise<void> {
    await this.cli('flushall');
  }

  /** `SHUTDOWN NOSAVE` (nothing survives), then a fresh server on the same port. */
  async restart(): Promise<void> {
    this.process.expectExit();
    await this.cli('shutdown', 'nosave').catch(() => undefined); // the connection drops as it exits
    const forced = setTimeout(() => void this.process.sigkill(), 10_000);
    await this.process.waitForExit();
    clearTimeout(forced);
    await this.start();
  }

  async stop(): Promise<void> {
    await this.process.stop(5_000);
  }
}
