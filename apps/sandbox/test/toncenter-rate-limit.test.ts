import { startSandbox, type StartedSandbox } from '../src';
import { getJson, putJson, sleep } from './helpers';

let sb: StartedSandbox;
let v2: string;
const ADDRESS = '0:' + '0'.repeat(64);

async function balanceCall(key?: string): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const query = `${v2}/getAddressBalance?address=${ADDRESS}`;
  const res = await fetch(query, { headers: key ? { 'X-API-Key': key } : {} });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
}

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    fragment: false,
    demoWallets: false,
    seed: 'rate-limit-test',
    faults: { rateLimit: { rps: 3, keylessRps: 1 } },
  });
  v2 = `${sb.url}/toncenter/api/v2`;
});
afterAll(async () => {
  await sb?.close();
});

describe('sandbox toncenter request limit', () => {
  test('keyless requests get 1 per second, the next one a real 429 with Retry-After', async () => {
    await sleep(1100);
    expect((await balanceCall()).status).toBe(200);
    const limited = await balanceCall();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ ok: false, result: 'Ratelimit exceed', code: 429 });
    expect(limited.retryAfter).toBe('1');
    await sleep(1050);
    expect((await balanceCall()).status).toBe(200);
  });

  test('each API key has its own bucket of rps requests per second', async () => {
    await sleep(1100);
    const a = [];
    for (let i = 0; i < 4; i += 1) a.push((await balanceCall('key-a')).status);
    expect(a).toEqual([200, 200, 200, 429]);
    expect((await balanceCall('key-b')).status).toBe(200);
    // The key may also come as the api_key query parameter, as toncenter takes it.
    const viaQuery = await fetch(`${v2}/getAddressBalance?address=${ADDRESS}&api_key=key-a`);
    expect(viaQuery.status).toBe(429);
    await viaQuery.body?.cancel();
  });

  test('the admin route shows the request and 429 counts, and changes or clears the limit', async () => {
    const before = (await getJson(`${sb.url}/admin/faults`)).body;
    expect(before.faults.rateLimit).toEqual({ rps: 3, keylessRps: 1 });
    expect(before.toncenter.keyless).toEqual({ requests: 3, rateLimited: 1 });
    expect(before.toncenter.keyed).toEqual({ requests: 6, rateLimited: 2 });

    const cleared = await putJson(`${sb.url}/admin/faults`, {});
    expect(cleared.body.faults).toEqual({});
    const statuses = await Promise.all(Array.from({ length: 8 }, async () => (await balanceCall()).status));
    expect(statuses.every((s) => s === 200)).toBe(true);

    const set = await putJson(`${sb.url}/admin/faults`, { rateLimit: { rps: 2 } });
    expect(set.body.faults).toEqual({ rateLimit: { rps: 2 } });
    const keyed = await Promise.all(Array.from({ length: 3 }, async () => (await balanceCall('k')).status));
    expect(keyed.filter((s) => s === 429)).toHaveLength(1);

    expect((await putJson(`${sb.url}/admin/faults`, { rateLimit: { rps: 0 } })).status).toBe(400);
    expect((await putJson(`${sb.url}/admin/faults`, { rateLimit: { rps: 5, burst: 2 } })).status).toBe(400);
  });

  test('off by default: a sandbox started without a limit serves every request', async () => {
    const open = await startSandbox({ port: 0, fragment: false, demoWallets: false, seed: 'rate-limit-off' });
    try {
      const statuses = await Promise.all(
        Array.from(
          { length: 12 },
          async () => (await fetch(`${open.url}/toncenter/api/v2/getAddressBalance?address=${ADDRESS}`)).status,
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect((await getJson(`${open.url}/admin/faults`)).body.toncenter).toEqual({
        keyed: { requests: 0, rateLimited: 0 },
        keyless: { requests: 12, rateLimited: 0 },
      });
    } finally {
      await open.close();
    }
  });
});
