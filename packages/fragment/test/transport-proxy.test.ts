/**
 * FRAGMENT_PROXY_URL: a login's calls go through its HTTP proxy (undici's ProxyAgent, a CONNECT
 * tunnel), as an operator whose host Cloudflare blocks configures it (docs/fragment-protocol.md §19.1).
 * The proxy is a real one on loopback: node:http answering CONNECT with a TCP tunnel, checking
 * the credentials of the proxy URL; the simulator behind it is the real one.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { FragmentClient, FragmentError } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';

const USER = 'operator';
const SECRET = 'proxy-secret-42';

let server: SimulatorServer;
let proxy: Server;
let proxyPort: number;
const tunnels: string[] = [];
const refused: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = await startSimulator();
  proxy = createServer((_req, res) => {
    res.writeHead(405).end();
  });
  proxy.on('connect', (req, client: Socket) => {
    sockets.add(client);
    const expected = `Basic ${Buffer.from(`${USER}:${SECRET}`).toString('base64')}`;
    if (req.headers['proxy-authorization'] !== expected) {
      refused.push(req.url ?? '');
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    tunnels.push(req.url ?? '');
    const [host = '', port = ''] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const close = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', close);
    client.on('error', close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await server?.close();
});

beforeEach(() => {
  tunnels.length = 0;
  refused.length = 0;
});

const simulatorHost = (): string => new URL(server.baseUrl).host;

function client(proxyUrl: string | undefined, warnings: string[] = []): FragmentClient {
  return new FragmentClient({
    baseUrl: server.baseUrl,
    cookies: server.freshCookies(),
    timeoutMs: 3_000,
    retry: { maxTries: 1 },
    logger: { warn: (message) => warnings.push(message) },
    ...(proxyUrl ? { proxyUrl } : {}),
  });
}

it('sends page GETs and API calls through the proxy, with its credentials', async () => {
  const viaProxy = client(`http://${USER}:${SECRET}@127.0.0.1:${proxyPort}`);
  await expect(viaProxy.tonRate()).resolves.toMatch(/^\d/);
  await expect(viaProxy.searchRecipient('stars', 'alice', 50)).resolves.toMatchObject({ name: expect.any(String) });
  expect(tunnels.length).toBeGreaterThan(0);
  expect(new Set(tunnels)).toEqual(new Set([simulatorHost()]));
});

it('goes direct without a proxy', async () => {
  await client(undefined).tonRate();
  expect(tunnels).toEqual([]);
});

it('fails when the proxy refuses the credentials, and never goes around it', async () => {
  const wrong = client(`http://${USER}:wrong@127.0.0.1:${proxyPort}`);
  const error = await wrong.tonRate().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(FragmentError);
  expect((error as FragmentError).kind).toBe('UPSTREAM_UNAVAILABLE');
  expect(refused).toEqual([simulatorHost()]);
  expect(tunnels).toEqual([]);
});

it('names the proxy, without its credentials, when Cloudflare blocks it too', async () => {
  const warnings: string[] = [];
  const viaProxy = client(`http://${USER}:${SECRET}@127.0.0.1:${proxyPort}`, warnings);
  server.sim.configure({ faults: { cloudflareBlock: true } });
  try {
    const error = await viaProxy.tonRate().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'CLOUDFLARE', cloudflare: 'block' });
  } finally {
    server.sim.configure({ faults: { cloudflareBlock: false } });
  }
  expect(warnings.join('\n')).toContain(`through proxy http://127.0.0.1:${proxyPort}`);
  expect(warnings.join('\n')).not.toContain(SECRET);
});
