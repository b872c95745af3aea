import { SeededRandom } from './random';

export interface DemoCredentials {
  ssid: string;
  stelToken: string;
  stelTonToken: string;
}

/** The demo login derived from the seed (accepted by default). */
export function demoCredentials(seed: string): DemoCredentials {
  const r = new SeededRandom(seed);
  return {
    ssid: demoSsid(r),
    stelToken: r.derive('demo:stel_token', 32).toString('hex'),
    stelTonToken: r.derive('demo:stel_ton_token', 120).toString('base64url'),
  };
}

/**
 * The `Cookie` header the worker is configured with in sandbox mode: a logged-in Fragment
 * session (base cookies + `stel_token` + `stel_ton_token`). `sessions` > 1 gives that many
 * sessions of the same account (like several browser profiles), joined by ` | ` as
 * FRAGMENT_COOKIES takes them; each has its own `stel_ssid` and so its own flow state.
 */
export function demoFragmentCookies(seed: string, sessions = 1): string {
  const c = demoCredentials(seed);
  const ssids = [
    c.ssid,
    ...Array.from({ length: sessions - 1 }, (_, i) => demoSsid(new SeededRandom(`${seed}:session:${i + 1}`))),
  ];
  return ssids
    .map((ssid) => `stel_ssid=${ssid}; stel_dt=0; stel_token=${c.stelToken}; stel_ton_token=${c.stelTonToken}`)
    .join(' | ');
}

function demoSsid(r: SeededRandom): string {
  const digits = BigInt('0x' + r.derive('demo:ssid-digits', 8).toString('hex'))
    .toString()
    .padStart(19, '0')
    .slice(0, 19);
  return `${r.derive('demo:ssid', 9).toString('hex')}_${digits}`;
}
