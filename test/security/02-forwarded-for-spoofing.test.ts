/**
 * Attack 2 (docs/security.md): with `TRUST_PROXY=true` the gateway believed every
 * `X-Forwarded-For` hop, so a client named its own IP and escaped every per-client limit.
 * `TRUST_PROXY` is now a hop count or the proxies' CIDRs; `true` is refused.
 */
import { randomUUID } from 'node:crypto';
import { loadGatewayConfig } from '@starsgate/gateway';
import { startStack, type RunningStack } from '../support/running-stack';

const LIMIT = 5;
/** The address an ingress in front of the gateway saw and appended: the real client. */
const REAL_CLIENT = '198.51.100.7';

describe('TRUST_PROXY at config parse', () => {
  it('refuses true, which would trust every hop', () => {
    expect(() => loadGatewayConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would trust every hop/);
  });

  it('takes a hop count or a list of addresses and CIDRs, and refuses anything else', () => {
    expect(loadGatewayConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadGatewayConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadGatewayConfig({}).trustProxy).toBe(false);
    expect(loadGatewayConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      'fd00::/8',
    ]);
    expect(() => loadGatewayConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY must be/);
    expect(() => loadGatewayConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be/);
  });
});

describe('a client that forges X-Forwarded-For behind one ingress (TRUST_PROXY=1)', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack({ TRUST_PROXY: '1', RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: '120' });
  }, 240_000);
  afterAll(() => stack?.stop());

  it('is still limited as the client the ingress saw', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LIMIT + 3; attempt += 1) {
      const response = await fetch(`${stack.gatewayUrl}/api/v1/purchases/${randomUUID()}`, {
        // What arrives from an ingress when the client sent its own `X-Forwarded-For: 203.0.113.n`.
        headers: { 'X-Forwarded-For': `203.0.113.${attempt + 1}, ${REAL_CLIENT}` },
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, LIMIT).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429]);

    // Another real client (another address the ingress appended) has its own budget.
    const other = await fetch(`${stack.gatewayUrl}/api/v1/purchases/${randomUUID()}`, {
      headers: { 'X-Forwarded-For': '198.51.100.8' },
    });
    expect(other.status).toBe(404);
  });
});
