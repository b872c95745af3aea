import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { createInterface } from 'node:readline';
import { Address } from '@ton/core';
import type { SandboxOptions } from '@starsgate/sandbox';
import type { RemoteUpstream } from '@starsgate/worker/testing';

/**
 * The sandbox process's scheduling niceness (BENCH_SANDBOX_NICE, default 10). It stands in for
 * Fragment and toncenter, which in production run elsewhere and take none of the service's CPU;
 * on a small machine its chain emulation would otherwise compete with the worker and PostgreSQL
 * on equal terms. With a lower priority the sandbox answers more slowly when the CPU is busy,
 * which counts as upstream latency, as a busy remote service's would. 0 runs it at equal priority.
 */
export const SANDBOX_NICENESS = Number(process.env.BENCH_SANDBOX_NICE ?? 10);

/** Starts bench/support/sandbox-process.ts at SANDBOX_NICENESS and waits for its READY line. */
export async function startRemoteSandbox(
  options: SandboxOptions,
): Promise<RemoteUpstream & { fund(address: Address, gram: string, usdt: string): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SANDBOX_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      `${__dirname}/sandbox-process.ts`,
      JSON.stringify(options),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (SANDBOX_NICENESS !== 0) setPriority(child.pid!, SANDBOX_NICENESS);
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (text) => {
      if (text.startsWith('READY ')) resolve(text.slice(6));
    });
    child.once('exit', (code) => reject(new Error(`sandbox process exited with ${code}`)));
  });
  const ready = JSON.parse(line) as { url: string; usdtMaster: string; receivers: { stars: string; premium: string } };
  return {
    url: ready.url,
    usdtMaster: Address.parse(ready.usdtMaster),
    receivingAddresses: {
      stars: Address.parse(ready.receivers.stars),
      premium: Address.parse(ready.receivers.premium),
    },
    async fund(address, gram, usdt) {
      const response = await fetch(`${ready.url}/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: address.toString(), gram, usdt }),
      });
      if (!response.ok) throw new Error(`faucet: ${response.status} ${await response.text()}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
