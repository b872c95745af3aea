/**
 * The rate-limited toncenter the chaos and soak runs drive the service against (docs/ton.md §9):
 * the sandbox enforces a keyed plan's limit with toncenter's real 429s, and the service gets that
 * plan's key and TONCENTER_RPS. 25 rps, toncenter's Plus plan: a payments service running
 * several workers and gateways needs more than the free plan's 10 (measured in docs/reports/chaos.md:
 * 8.5 toncenter requests per order, and the full chaos run accepts 1.7 orders a second, about
 * 14 requests a second on average).
 * The runs' own drivers call toncenter without a key and are not what is measured: they get a
 * keyless rate far above toncenter's 1.
 */
export const RUN_TONCENTER_TIER = { apiKey: 'run-plus-plan-key', rps: 25 } as const;
const DRIVER_KEYLESS_RPS = 1000;

/** The sandbox fault switch that enforces the tier (merged into SANDBOX_FAULTS). */
export const runToncenterRateLimit = { rps: RUN_TONCENTER_TIER.rps, keylessRps: DRIVER_KEYLESS_RPS };

/** The gateway's and the workers' toncenter settings for the tier. */
export function runToncenterEnv(): Record<string, string> {
  return { TONCENTER_API_KEY: RUN_TONCENTER_TIER.apiKey, TONCENTER_RPS: String(RUN_TONCENTER_TIER.rps) };
}

export interface ToncenterTraffic {
  /** The service's requests (it alone holds the key) and the 429s the enforced limit gave it. */
  service: { requests: number; rateLimited: number };
  /** 429s the sandbox's random `http429` fault injected (not the limit). */
  injected429: number;
}

/** What the sandbox counted since it started (GET /admin/faults). */
export async function readToncenterTraffic(sandboxUrl: string): Promise<ToncenterTraffic> {
  const response = await fetch(`${sandboxUrl}/admin/faults`);
  if (!response.ok) throw new Error(`sandbox /admin/faults: HTTP ${response.status}`);
  const view = (await response.json()) as {
    fired: { http429: number };
    toncenter: { keyed: { requests: number; rateLimited: number } };
  };
  return { service: view.toncenter.keyed, injected429: view.fired.http429 };
}
