/**
 * A small HTTP load balancer in front of the gateway replicas: each request goes to the next
 * target in turn. Like nginx's default `proxy_next_upstream error`, a target that refuses the
 * connection (the request never reached it) is skipped for the next one; any other failure is
 * answered 502 and left to the client's retry.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded per target URL, and 502s answered. */
  stats(): { forwarded: Record<string, number>; badGateway: number };
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

export async function startRoundRobinProxy(targets: () => string[], port = 0): Promise<RoundRobinProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const forwarded: Record<string, number> = {};
  let badGateway = 0;
  let next = 0;

  const forward = (
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    target: string,
    onRefused: () => void,
  ): void => {
    const url = new URL(req.url ?? '/', target);
    const headers: http.OutgoingHttpHeaders = {};
    for (const [key, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(key)) headers[key] = value;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
    headers['content-length'] = String(body.length);
    const upstream = http.request(url, { method: req.method, headers, agent }, (answer) => {
      forwarded[target] = (forwarded[target] ?? 0) + 1;
      const out: http.OutgoingHttpHeaders = {};
      for (const [key, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(key)) out[key] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') return onRefused();
      if (res.headersSent) return void res.destroy();
      badGateway += 1;
      res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"BAD_GATEWAY"}');
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const list = targets();
      let tries = 0;
      const attempt = (): void => {
        if (tries >= list.length) {
          badGateway += 1;
          res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"NO_UPSTREAM"}');
          return;
        }
        tries += 1;
        const target = list[next++ % list.length]!;
        forward(req, res, body, target, attempt);
      };
      attempt();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => ({ forwarded: { ...forwarded }, badGateway }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
