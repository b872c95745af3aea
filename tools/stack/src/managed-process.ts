/**
 * One OS process of the stack (a gateway, a worker, the sandbox …) that can be killed, paused,
 * resumed and started again, with its stdout and stderr appended to its own log file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { waitForHttp } from '@starsgate/platform/testing';

export type ProcessKind = 'gateway' | 'worker' | 'sandbox' | 'redis' | 'pgbouncer';

export interface ProcessSpec {
  /** Unique within a stack, e.g. `gateway-1`. */
  name: string;
  kind: ProcessKind;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where stdout and stderr are appended; absent, they go to the launcher's own (`npm start`). */
  logFile?: string;
  /** Answers 2xx once the process serves (e.g. the gateway's /readyz). */
  readyUrl?: string;
  readyTimeoutMs?: number;
  /** Hears every exit; `expected` when someone asked for it (stop, SIGKILL, `expectExit`). */
  onExit?: (exit: { code: number | null; signal: NodeJS.Signals | null; expected: boolean }) => void;
}

const live = new Set<ManagedProcess>();
// Whatever ends the parent, no child outlives it.
process.once('exit', () => {
  for (const child of live) child.killNow('SIGKILL');
});

export class ManagedProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private paused = false;
  /** How many times it was started, and its exits that nobody asked for (crashes). */
  starts = 0;
  unexpectedExits = 0;
  private expectingExit = false;

  constructor(readonly spec: ProcessSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get kind(): ProcessKind {
    return this.spec.kind;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  private note(line: string): void {
    if (this.spec.logFile)
      appendFileSync(this.spec.logFile, `[launcher ${new Date().toISOString()}] ${this.name}: ${line}\n`);
  }

  /** Spawns the process and waits until it is ready (readyUrl) or throws if it exits first. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const fd = this.spec.logFile ? openSync(this.spec.logFile, 'a') : undefined;
    let child: ChildProcess;
    try {
      child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd,
        env: this.spec.env,
        stdio: ['ignore', fd ?? 'inherit', fd ?? 'inherit'],
      });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.child = child;
    this.starts += 1;
    this.paused = false;
    this.expectingExit = false;
    live.add(this);
    this.note(`started (pid ${child.pid}, start #${this.starts})`);
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        live.delete(this);
        if (!this.expectingExit) this.unexpectedExits += 1;
        this.note(`exited (${signal ?? `code ${code}`})${this.expectingExit ? '' : ' unexpectedly'}`);
        resolve();
        this.spec.onExit?.({ code, signal, expected: this.expectingExit });
      });
    });
    if (this.spec.readyUrl) {
      await waitForHttp(this.spec.readyUrl, {
        timeoutMs: this.spec.readyTimeoutMs ?? 90_000,
        gaveUp: () => (child.exitCode !== null || child.signalCode !== null ? `${this.name} exited` : undefined),
      });
      this.note('ready');
    }
  }

  /** The next exit is asked for by someone else (e.g. `redis-cli shutdown`): not a crash. */
  expectExit(): void {
    this.expectingExit = true;
  }

  /** Resolves when the current run of the process has exited. */
  waitForExit(): Promise<void> {
    return this.exited;
  }

  /** Sends a signal without waiting (used on the way out). */
  killNow(signal: NodeJS.Signals): void {
    if (!this.running) return;
    this.expectingExit = true;
    try {
      this.child!.kill(signal);
    } catch {
      // already gone
    }
  }

  /** SIGKILL: no handler runs, in-flight work is cut wherever it is. Resolves once it is gone. */
  async sigkill(): Promise<void> {
    if (!this.running) return;
    this.note('SIGKILL');
    this.killNow('SIGKILL');
    await this.exited;
  }

  /** SIGSTOP: the process is frozen (sockets stay open, nothing answers). */
  pause(): void {
    if (!this.running || this.paused) return;
    this.note('SIGSTOP');
    this.child!.kill('SIGSTOP');
    this.paused = true;
  }

  /** SIGCONT after pause(). */
  resume(): void {
    if (!this.running || !this.paused) return;
    this.note('SIGCONT');
    this.child!.kill('SIGCONT');
    this.paused = false;
  }

  /** SIGKILL (if running) then start again, waiting for readiness. */
  async restart(): Promise<void> {
    await this.sigkill();
    await this.start();
  }

  /** SIGTERM (graceful), SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    if (this.paused) this.resume();
    this.note('SIGTERM');
    this.killNow('SIGTERM');
    const forced = setTimeout(() => this.killNow('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(forced);
  }
}
