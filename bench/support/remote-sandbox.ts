import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Address } from '@ton/core';
import type { SandboxOptions } from '../../apps/sandbox/src/server';
import type { RemoteUpstream } from '../../apps/worker/test/support/worker-harness';

/** Starts bench/support/sandbox-process.ts and waits for its READY line. */
export async function startRemoteSandbox(options: SandboxOptions): Promise<RemoteUpstream & { fund(address: Address, gram: string, usdt: string): Promise<void> }> {
  const child = spawn(process.execPath, [...(process.env.BENCH_SANDBOX_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', `${__dirname}/sandbox-process.ts`, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      if (text.startsWith('READY ')) resolve(text.slice(6));
    });
    child.once('exit', (code) => reject(new Error(`sandbox process exited with ${code}`)));
  });
  const ready = JSON.parse(line) as { url: string; usdtMaster: string; receivers: { stars: string; premium: string } };
  return {
    url: ready.url,
    usdtMaster: Address.parse(ready.usdtMaster),
    receivingAddresses: { stars: Address.parse(ready.receivers.stars), premium: Address.parse(ready.receivers.premium) },
    async fund(address, gram, usdt) {
      const response = await fetch(`${ready.url}/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: address.toString(), gram, usdt }) });
      if (!response.ok) throw new Error(`faucet: ${response.status} ${await response.text()}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
