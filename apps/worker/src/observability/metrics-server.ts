import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { SERVICE_VERSION, type Logger } from '@starsgate/platform';

export interface MetricsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** Refreshes the scrape-time gauges before `/metrics` renders. */
  beforeScrape: () => Promise<void>;
  /** Named dependency checks for `/readyz`; each resolves true when usable. */
  readiness: Record<string, () => Promise<boolean>>;
  logger: Logger;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

async function probe(check: () => Promise<boolean>): Promise<'ok' | 'fail'> {
  try {
    return (await check()) ? 'ok' : 'fail';
  } catch {
    return 'fail';
  }
}

/**
 * The worker's own small HTTP listener, so Prometheus can scrape it and Kubernetes probe it:
 * `/metrics`, `/livez` (the process and its event loop), `/readyz` (its dependencies).
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { code: 'METHOD_NOT_ALLOWED' });
    if (path === '/livez') return json(res, 200, { status: 'ok', version: SERVICE_VERSION });
    if (path === '/readyz') {
      const names = Object.keys(options.readiness);
      const results = await Promise.all(names.map((name) => probe(options.readiness[name]!)));
      const checks = Object.fromEntries(names.map((name, index) => [name, results[index]]));
      const ready = results.every((result) => result === 'ok');
      return json(res, ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', checks });
    }
    if (path === '/metrics') {
      await options.beforeScrape().catch((error: unknown) => {
        // Stale gauges beat no scrape: the process series and counters are still true.
        options.logger.warn('metrics: scrape-time gauges not refreshed', { error });
      });
      res.writeHead(200, { 'content-type': options.registry.contentType });
      res.end(await options.registry.metrics());
      return;
    }
    json(res, 404, { code: 'NOT_FOUND' });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.logger.error('metrics listener error', { error });
      if (!res.headersSent) json(res, 500, { code: 'INTERNAL_ERROR' });
      else res.end();
    });
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
