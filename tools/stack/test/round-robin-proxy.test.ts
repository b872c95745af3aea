/**
 * The load balancer chaos and soak put in front of the gateway replicas: each request goes to the
 * next replica in turn, a replica that refuses the connection (killed, restarting) is skipped for
 * the next one, and with none left the client gets a 502 it can retry.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '@starsgate/platform/testing';
import { startRoundRobinProxy, type RoundRobinProxy } from '../src/round-robin-proxy';

interface Replica {
  url: string;
  received: { method?: string; body: string; forwardedFor?: string }[];
  close(): Promise<void>;
}

async function startReplica(name: string): Promise<Replica> {
  const received: Replica['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forwardedFor = req.headers['x-forwarded-for'];
      received.push({
        method: req.method,
        body: Buffer.concat(chunks).toString('utf8'),
        forwardedFor: String(forwardedFor),
      });
      res.writeHead(201, { 'content-type': 'text/plain', 'x-replica': name }).end(name);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('round-robin proxy', () => {
  let first: Replica;
  let second: Replica;
  let refused: string;
  const proxies: RoundRobinProxy[] = [];

  beforeAll(async () => {
    first = await startReplica('first');
    second = await startReplica('second');
    refused = `http://127.0.0.1:${await freePort()}`;
  });

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    await first.close();
    await second.close();
  });

  it('sends each request to the next replica in turn, skipping one that refuses the connection', async () => {
    const proxy = await startRoundRobinProxy(() => [first.url, refused, second.url]);
    proxies.push(proxy);
    const answers: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${proxy.url}/api/v1/purchases?n=${i}`, { method: 'POST', body: `order-${i}` });
      const answer = await response.text();
      expect(response.status).toBe(201);
      expect(response.headers.get('x-replica')).toBe(answer);
      answers.push(answer);
    }
    expect(answers).toEqual(['first', 'second', 'first', 'second']);
    expect(first.received.map((request) => request.body)).toEqual(['order-0', 'order-2']);
    expect(second.received.map((request) => request.body)).toEqual(['order-1', 'order-3']);
    expect(first.received[0]).toMatchObject({ method: 'POST', forwardedFor: '127.0.0.1' });
    expect(proxy.stats()).toEqual({ forwarded: { [first.url]: 2, [second.url]: 2 }, badGateway: 0 });
  });

  it('answers 502 when every replica refuses the connection', async () => {
    const proxy = await startRoundRobinProxy(() => [refused]);
    proxies.push(proxy);
    const response = await fetch(`${proxy.url}/readyz`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'NO_UPSTREAM' });
    expect(proxy.stats()).toEqual({ forwarded: {}, badGateway: 1 });
  });
});
