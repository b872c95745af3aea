/**
 * Faults at seeded random moments of the drive: SIGKILL and restart of workers and gateways,
 * a Redis FLUSHALL, a Redis restart (`shutdown nosave`), a PostgreSQL restart (`pg_ctlcluster …
 * restart`) and the sandbox frozen for 10 s (SIGSTOP … SIGCONT). One at a time, in time order.
 */
import type { ManagedProcess, PostgresCluster, RedisServer, Stack } from '@starsgate/stack';
import { sleep } from '@starsgate/stack';
import type { SeededRandom } from './random';

export type FaultKind =
  | 'SIGKILL worker'
  | 'SIGKILL gateway'
  | 'Redis FLUSHALL'
  | 'Redis restart'
  | 'PostgreSQL restart'
  | 'sandbox SIGSTOP 10 s';

export interface PlannedFault {
  atMs: number;
  kind: FaultKind;
}

export interface FaultRecord extends PlannedFault {
  target: string;
  /** From the fault to the process/service being back (ms). */
  recoveryMs: number;
  error?: string;
}

export function planFaults(random: SeededRandom, durationMs: number, kills: number): PlannedFault[] {
  const kinds: FaultKind[] = [
    ...Array<FaultKind>(kills).fill('SIGKILL worker'),
    ...Array<FaultKind>(kills).fill('SIGKILL gateway'),
    'Redis FLUSHALL',
    'Redis restart',
    'PostgreSQL restart',
    'sandbox SIGSTOP 10 s',
  ];
  return kinds
    .map((kind) => ({ kind, atMs: Math.round(durationMs * (0.08 + 0.8 * random.next())) }))
    .sort((a, b) => a.atMs - b.atMs);
}

export interface FaultTargets {
  stack: Stack;
  redis: RedisServer;
  postgres: PostgresCluster;
}

async function killAndRestart(process: ManagedProcess, random: SeededRandom): Promise<void> {
  await process.sigkill();
  await sleep(random.int(500, 3_000));
  for (let attempt = 1; ; attempt++) {
    try {
      await process.start();
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await process.sigkill();
      await sleep(2_000);
    }
  }
}

export async function runFaults(
  plan: PlannedFault[],
  targets: FaultTargets,
  random: SeededRandom,
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const began = Date.now();
  const records: FaultRecord[] = [];
  for (const fault of plan) {
    const wait = began + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    const started = Date.now();
    let target = '';
    let error: string | undefined;
    try {
      switch (fault.kind) {
        case 'SIGKILL worker':
        case 'SIGKILL gateway': {
          const pool = fault.kind === 'SIGKILL worker' ? targets.stack.workers : targets.stack.gateways;
          const victim = random.pick(pool);
          target = victim.name;
          await killAndRestart(victim, random);
          break;
        }
        case 'Redis FLUSHALL':
          target = 'redis';
          await targets.redis.flushAll();
          break;
        case 'Redis restart':
          target = 'redis';
          await targets.redis.restart();
          break;
        case 'PostgreSQL restart':
          target = `cluster ${targets.postgres.version}/${targets.postgres.name}`;
          await targets.postgres.restart();
          break;
        case 'sandbox SIGSTOP 10 s':
          target = 'sandbox';
          targets.stack.sandbox.pause();
          await sleep(10_000);
          targets.stack.sandbox.resume();
          break;
      }
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const record: FaultRecord = { ...fault, target, recoveryMs: Date.now() - started, ...(error ? { error } : {}) };
    records.push(record);
    log(
      `fault at +${Math.round((started - began) / 1000)} s: ${fault.kind} ${target} (back after ${record.recoveryMs} ms)${error ? ` ERROR ${error}` : ''}`,
    );
  }
  return records;
}
