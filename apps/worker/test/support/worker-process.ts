import { spawn, type ChildProcess } from 'node:child_process';
import { freshBundle, REPO_ROOT } from '@starsgate/stack';

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the signal (e.g. 'SIGKILL') or exit code once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The real worker as a child process: its bundle (`apps/worker/dist/main.js`, rebuilt first when
 * older than its sources), which starts on about half the CPU that tsx needs for the sources
 * (0.7 CPU-seconds against 1.3 measured).
 */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [freshBundle('worker')], {
    cwd: REPO_ROOT,
    // No metrics listener unless the test asks for one: workers of parallel tests would share its port.
    env: { ...process.env, WORKER_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    exited,
    stderr: () => stderr,
    kill: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const result = await exited;
      clearTimeout(forced);
      return result;
    },
  };
}

/** Worker settings of the crash tests: short leases, so a killed worker's rows are reclaimed soon. */
export const CRASH_TEST_ENV: Record<string, string> = {
  LEASE_MS: '3000',
  JOB_LOCK_MS: '3000',
  SWEEP_INTERVAL_MS: '300',
  CONFIRMING_MAX_AGE_MS: '60000',
};

/** The worker processes a test started, so that it can kill whatever is still running at the end. */
export class WorkerFleet {
  private readonly running: WorkerProcess[] = [];

  constructor(private readonly baseEnv: () => Record<string, string>) {}

  start(env: Record<string, string> = {}): WorkerProcess {
    const worker = spawnWorker({ ...this.baseEnv(), ...env });
    this.running.push(worker);
    return worker;
  }

  async killAll(): Promise<void> {
    await Promise.all(this.running.map((worker) => worker.kill('SIGKILL')));
  }
}

/** How the worker exited, or 'timeout' if it still runs after `ms`. */
export async function exitWithin(
  worker: WorkerProcess,
  ms: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      worker.exited,
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms))),
    ]);
  } finally {
    // A pending timer would keep jest's worker process alive after the suite.
    clearTimeout(timer);
  }
}
