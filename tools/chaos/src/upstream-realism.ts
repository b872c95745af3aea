/**
 * The sandbox as a realistic upstream: Fragment answers after 150–400 ms and about 5 % of every
 * API method and page fail (hangs, 5xx, 429, Cloudflare challenges and blocks, business errors), and it
 * refuses an init of flows that interleaved on one session (strictFlow); toncenter
 * answers after 20–150 ms and 2.5 % of its requests fail (5xx), 2 % of broadcasts are
 * accepted but never included, and it enforces a keyed plan's request limit (tools/stack/src/toncenter-tier.ts).
 */
import { splitCookieSets } from '@starsgate/fragment';
import { runToncenterRateLimit } from '@starsgate/stack';
import { chaosDirectory } from './order-plan';

const FRAGMENT_FAULTS = {
  timeoutRate: 0.01,
  serverErrorRate: 0.015,
  rateLimitRate: 0.01,
  retryAfterSeconds: 1,
  cloudflareRate: 0.005,
  cloudflareBlockRate: 0.005,
  errorRate: 0.01,
  errorText: 'Internal error. Please try again later.',
};

export function sandboxEnv(runSeed: string, validitySeconds: number): Record<string, string> {
  return {
    SANDBOX_SEED: `chaos-${runSeed}`,
    SANDBOX_TX_INDEX_PER_ACCOUNT: '20000',
    SANDBOX_FAULTS: JSON.stringify({
      latency: { minMs: 20, maxMs: 150 },
      http5xx: { rate: 0.025 },
      // No random 429s: the enforced limit gives toncenter's real ones, and a random 429 would
      // (rightly) pause every replica for its Retry-After, a stall no real toncenter causes.
      dropExternals: { rate: 0.02 },
      rateLimit: runToncenterRateLimit,
    }),
    SANDBOX_FRAGMENT_CONFIG: JSON.stringify({
      latency: { minMs: 150, maxMs: 400 },
      processingDelay: { minMs: 1_000, maxMs: 4_000 },
      doneDelay: { minMs: 3_000, maxMs: 20_000 },
      hangMs: 30_000,
      validitySeconds,
      directory: chaosDirectory(),
      // strictFlow: the workers share each login; an interleaved flow's init would be refused.
      faults: { methods: { '*': FRAGMENT_FAULTS, page: FRAGMENT_FAULTS }, strictFlow: true },
    }),
  };
}

/**
 * Fragment may name the wallet linked to its account as `transaction.from` or echo the account
 * sent (docs/fragment-protocol.md §17): the run gives half the Fragment sessions the sandbox
 * publishes each mode (alternating by position), so both worlds are paid for under chaos. Returns
 * how many sessions got each mode.
 */
export async function splitFragmentSessionModes(sandboxUrl: string): Promise<{ linked: number; echo: number }> {
  const demo = (await (await fetch(`${sandboxUrl}/demo`)).json()) as { fragment?: { cookies?: string } | null };
  const ssids = splitCookieSets(demo.fragment?.cookies ?? '').map(
    (cookies) => /stel_ssid=([^;\s]+)/.exec(cookies)?.[1],
  );
  if (ssids.length === 0 || ssids.some((ssid) => ssid === undefined))
    throw new Error('the sandbox published no Fragment session cookies');
  const modes = Object.fromEntries(ssids.map((ssid, i) => [ssid!, i % 2 === 0 ? 'linked' : 'echo']));
  const put = await fetch(`${sandboxUrl}/admin/fragment/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transactionFromBySession: modes }),
  });
  if (!put.ok) throw new Error(`could not set the Fragment sessions' modes: HTTP ${put.status}`);
  const echo = Object.values(modes).filter((mode) => mode === 'echo').length;
  return { linked: ssids.length - echo, echo };
}

/** Turns the faults off (after the settle deadline, so the checks read the chain and the simulator plainly). */
export async function clearUpstreamFaults(sandboxUrl: string): Promise<void> {
  const put = await fetch(`${sandboxUrl}/admin/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const reset = await fetch(`${sandboxUrl}/admin/fragment/faults/reset`, { method: 'POST' });
  if (!put.ok || !reset.ok) throw new Error('could not clear the sandbox faults');
}

/** Inits the simulator refused because flows of one session interleaved (strictFlow): 0 when the leases hold. */
export async function readStrictFlowRejections(sandboxUrl: string): Promise<number> {
  const response = await fetch(`${sandboxUrl}/admin/fragment/stats`);
  if (!response.ok) throw new Error(`could not read the Fragment simulator's stats: HTTP ${response.status}`);
  return Number(((await response.json()) as { strictFlowRejections?: number }).strictFlowRejections ?? 0);
}
