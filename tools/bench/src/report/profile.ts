/**
 * Profiles the gateway under the POST /api/v1/purchases load: bench/report/gateway-process.ts
 * runs with `node --cpu-prof`, autocannon (its own process) sends unique orders for a warm-up and
 * then for the measured window, and only the samples inside that window are kept (the profile's
 * clock and process.hrtime are both CLOCK_MONOTONIC, so the window is known in its time base).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { measure } from '../support/harness';
import { starsOrderJson } from '../support/stars-order';
import type { CpuProfile, SampleWindow } from './flamegraph';

export interface GatewayProfile {
  profile: CpuProfile;
  window: SampleWindow;
  seconds: number;
  connections: number;
  requestsPerSecond: number;
}

export async function profileGatewayPost(options: {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  env: NodeJS.ProcessEnv;
  /** The Node binary the gateway runs on (default: this process's). */
  node?: string;
}): Promise<GatewayProfile> {
  const dir = mkdtempSync(path.join(tmpdir(), 'starsgate-profile-'));
  const child = spawn(
    options.node ?? process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', path.join(__dirname, 'gateway-process.ts')],
    { stdio: ['ignore', 'pipe', 'inherit'], env: options.env },
  );
  try {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (text) => {
        if (text.startsWith('READY ')) resolve(text.slice(6));
      });
      void exited.then((code) => reject(new Error(`gateway process exited with ${code} before it was ready`)));
    });
    const { url } = JSON.parse(ready) as { url: string };
    const load = {
      url: `${url}/api/v1/purchases`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections: options.connections,
      idReplacement: true,
      body: starsOrderJson('profile-[<id>]'),
    };
    await measure('POST /api/v1/purchases (warm-up)', { ...load, duration: options.warmupSeconds });
    const from = Number(process.hrtime.bigint() / 1000n);
    const result = await measure('POST /api/v1/purchases (profiled)', { ...load, duration: options.seconds });
    const to = Number(process.hrtime.bigint() / 1000n);
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`gateway process exited with ${code}`);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
    return {
      profile: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile,
      window: { fromMicros: from, toMicros: to },
      seconds: options.seconds,
      connections: options.connections,
      requestsPerSecond: result.requests.average,
    };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
