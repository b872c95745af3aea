/**
 * The environment the gateway and the worker need against a running sandbox: its toncenter and
 * Fragment simulator URLs and the demo login, USDT master and receiving addresses it publishes at
 * GET /demo (the same wiring start.ts does for `npm start`).
 */
export interface SandboxDemo {
  usdt?: { master?: string };
  fragment?: { cookies?: string; receivingAddresses?: Record<string, string> } | null;
}

export function upstreamEnv(sandboxUrl: string, demo: SandboxDemo): Record<string, string> {
  const env: Record<string, string> = {
    TONCENTER_URL: `${sandboxUrl}/toncenter`,
    // The sandbox's toncenter has no request limit unless its faults set one (then the run sets
    // TONCENTER_RPS and TONCENTER_API_KEY to the tier it enforces).
    TONCENTER_RPS: '0',
    FRAGMENT_BASE_URL: `${sandboxUrl}/fragment`,
  };
  if (demo.usdt?.master) env['USDT_MASTER_ADDRESS'] = demo.usdt.master;
  if (demo.fragment?.cookies) env['FRAGMENT_COOKIES'] = demo.fragment.cookies;
  if (demo.fragment?.receivingAddresses)
    env['FRAGMENT_RECEIVING_ADDRESSES'] = Object.values(demo.fragment.receivingAddresses).join(',');
  return env;
}
