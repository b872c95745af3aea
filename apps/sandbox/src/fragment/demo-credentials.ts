import { SeededRandom } from './random';

export interface DemoCredentials {
  ssid: string;
  stelToken: string;
  stelTonToken: string;
}

/** The demo login derived from the seed (accepted by default). */
export function demoCredentials(seed: string): DemoCredentials {
  const r = new SeededRandom(seed);
  const digits = BigInt('0x' + r.derive('demo:ssid-digits', 8).toString('hex')).toString().padStart(19, '0').slice(0, 19);
  return {
    ssid: `${r.derive('demo:ssid', 9).toString('hex')}_${digits}`,
    stelToken: r.derive('demo:stel_token', 32).toString('hex'),
    stelTonToken: r.derive('demo:stel_ton_token', 120).toString('base64url'),
  };
}

/**
 * The `Cookie` header the worker is configured with in sandbox mode: a
 * logged-in Fragment session (base cookies + `stel_token` + `stel_ton_token`).
 */
export function demoFragmentCookies(seed: string): string {
  const c = demoCredentials(seed);
  return `stel_ssid=${c.ssid}; stel_dt=0; stel_token=${c.stelToken}; stel_ton_token=${c.stelTonToken}`;
}
