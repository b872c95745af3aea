/**
 * What the security tests do with a running stack (test/support/running-stack.ts): buy with a demo
 * wallet, wait for a status, read a service's process environment as the kernel holds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { FingerprintKeys } from '@starsgate/db';
import { ENTRYPOINTS, type ServiceKind } from '@starsgate/stack';
import type { RunningStack } from '../../support/running-stack';

export interface DemoWallet {
  id: string;
  seed: string;
  accountIndex?: number;
}

export async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function demoWallets(stack: RunningStack): Promise<DemoWallet[]> {
  return (await json<{ wallets: DemoWallet[] }>(`${stack.sandboxUrl}/demo`)).wallets;
}

export async function buyStars(
  stack: RunningStack,
  wallet: DemoWallet,
  username: string,
  key: string,
): Promise<string> {
  const created = await json<{ purchase_id: string }>(`${stack.gatewayUrl}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      product: 'stars',
      username,
      amount: 50,
      payment_method: 'gram',
      seed: wallet.seed,
      ...(wallet.accountIndex !== undefined ? { account_index: wallet.accountIndex } : {}),
      idempotency_key: key,
    }),
  });
  return created.purchase_id;
}

export async function adminGet<T>(stack: RunningStack, pathname: string): Promise<T> {
  return json<T>(`${stack.adminUrl}${pathname}`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
}

export async function waitForStatus(
  stack: RunningStack,
  id: string,
  status: string,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await adminGet<{ status: string }>(stack, `/admin/api/purchases/${id}`);
    if (row.status === status) return;
    if (Date.now() > deadline)
      throw new Error(`purchase ${id} is ${row.status}, not ${status}\n${stack.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The environment the kernel gave the stack's process of `service` (the one running its bundle). */
export function processEnvironment(stack: RunningStack, service: ServiceKind): Record<string, string> {
  const entry = ENTRYPOINTS[service];
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let current = parents.get(pid); current; current = parents.get(current))
      if (current === stack.pid) return true;
    return false;
  };
  const match = [...parents.keys()].find(
    (pid) =>
      descends(pid) &&
      readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.endsWith(entry)),
  );
  if (!match) throw new Error(`no process of the stack runs ${entry}`);
  return Object.fromEntries(
    readFileSync(`/proc/${match}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/** The stack's gateway's own key of fingerprints and admin token ids (`adminTokenId`), from its environment. */
export function gatewayKeys(stack: RunningStack): FingerprintKeys {
  return new FingerprintKeys(processEnvironment(stack, 'gateway').STARSGATE_FINGERPRINT_KEY!);
}
