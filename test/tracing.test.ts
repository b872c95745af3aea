/**
 * One purchase, one trace: the built gateway and worker, started with an OTLP/HTTP endpoint this
 * test serves itself, export their spans; the POST, the BullMQ jobs, the SQL, the Fragment and
 * toncenter calls, the signing and the broadcast of one purchase share one trace id, the worker's
 * log lines carry the POST's request id, and no exported byte holds the seed, the Fragment
 * cookies or the admin token. Nothing inside the service is mocked.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { waitFor } from '@starsgate/platform/testing';
import { startStack, type Stack } from '@starsgate/stack';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
interface ReceivedSpan extends OtlpSpan {
  service: string;
}

/** A minimal OTLP/HTTP JSON receiver: every POST /v1/traces body, raw and parsed. */
class OtlpReceiver {
  readonly bodies: string[] = [];
  readonly spans: ReceivedSpan[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces') {
        this.bodies.push(body);
        const parsed = JSON.parse(body) as {
          resourceSpans: Array<{
            resource: { attributes: Array<{ key: string; value: OtlpValue }> };
            scopeSpans: Array<{ spans: OtlpSpan[] }>;
          }>;
        };
        for (const resourceSpans of parsed.resourceSpans) {
          const service =
            resourceSpans.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
          for (const scope of resourceSpans.scopeSpans)
            for (const span of scope.spans) this.spans.push({ ...span, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;

describe('tracing: one purchase, one trace', () => {
  const receiver = new OtlpReceiver();
  let database: TestDatabase;
  let stack: Stack;
  let logDir: string;

  beforeAll(async () => {
    const endpoint = await receiver.listen();
    database = await createTestDatabase();
    logDir = mkdtempSync(path.join(tmpdir(), 'tracing-test-'));
    stack = await startStack({
      logDir,
      databaseUrl: database.url,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      gateways: 1,
      workers: 1,
      proxy: false,
      sandboxEnv: {
        SANDBOX_SEED: `tracing-${randomBytes(3).toString('hex')}`,
        SANDBOX_PRICE_DRIFT: 'off',
        SANDBOX_FRAGMENT_CONFIG: JSON.stringify({
          latency: { minMs: 5, maxMs: 10 },
          processingDelay: { minMs: 50, maxMs: 100 },
          // Delivered seconds after the payment, so the confirming job's first look finds nothing
          // and the purchase continues in a later job: the trace must cross the worker's own
          // re-enqueue too, not only the gateway's enqueue (a delivery the first look already saw
          // ended the purchase in one job on a loaded machine).
          doneDelay: { minMs: 3_000, maxMs: 4_000 },
        }),
      },
      serviceEnv: {
        LOG_LEVEL: 'debug',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.close();
    await database?.drop();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('carries a purchase from the POST to completed in one trace, without a secret in any span', async () => {
    const demo = (await (await fetch(`${stack.sandboxUrl}/demo`)).json()) as {
      wallets: Array<{ seed: string; account_index?: number }>;
      fragment?: { cookies?: string };
    };
    const wallet = demo.wallets[0]!;
    const created = await fetch(`${stack.url}/api/v1/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        product: 'stars',
        username: '@alice',
        amount: 50,
        payment_method: 'gram',
        seed: wallet.seed,
        account_index: 0,
        idempotency_key: `tracing-${randomBytes(8).toString('hex')}`,
      }),
    });
    expect(created.status).toBe(202);
    const requestId = created.headers.get('request-id')!;
    const { purchase_id: purchaseId } = (await created.json()) as { purchase_id: string };

    const deadline = Date.now() + 120_000;
    let status = 'queued';
    while (!['completed', 'failed', 'reconciliation_required'].includes(status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = ((await (await fetch(`${stack.url}/api/v1/purchases/${purchaseId}`)).json()) as { status: string })
        .status;
    }
    expect(status).toBe('completed');

    // The POST's server span, as the gateway exported it.
    const post = await waitFor(
      () =>
        receiver.spans.find(
          (span) =>
            span.service === 'starsgate-gateway' && attribute(span, 'starsgate.request_id')?.stringValue === requestId,
        ),
      { timeoutMs: 10_000, intervalMs: 200, what: 'the POST span' },
    );
    const jobs = () =>
      receiver.spans.filter(
        (span) => span.name === 'purchase.job' && attribute(span, 'starsgate.purchase_id')?.stringValue === purchaseId,
      );
    // The job that saw `completed` written has ended and been exported once a job of a later
    // version (or none) is left: wait for the signing and the broadcast at least.
    await waitFor(
      () => receiver.spans.some((span) => span.name === 'purchase.broadcast' && span.traceId === post.traceId),
      { timeoutMs: 15_000, intervalMs: 200, what: 'the broadcast span' },
    );
    // The completion: a later job's span, or the delivery watch's for a purchase it completed while
    // parked (delivery-watch.ts). Spans leave in batches: on a loaded machine it may come seconds later.
    const delivered = () =>
      receiver.spans.filter(
        (span) =>
          span.name === 'purchase.delivered' && attribute(span, 'starsgate.purchase_id')?.stringValue === purchaseId,
      );
    await waitFor(() => jobs().length > 1 || delivered().length > 0, {
      timeoutMs: 15_000,
      intervalMs: 200,
      what: 'a second purchase.job span or the purchase.delivered span',
    });
    expect(jobs().length + delivered().length).toBeGreaterThan(1);
    for (const span of [...jobs(), ...delivered()]) expect(span.traceId).toBe(post.traceId);
    const inTrace = receiver.spans.filter((span) => span.traceId === post.traceId);
    const names = new Set(inTrace.map((span) => span.name));
    for (const name of ['purchase.job', 'wallet.sign', 'purchase.broadcast', 'chain.sendBoc'])
      expect(names).toContain(name);
    expect([...names].some((name) => name.startsWith('fragment.'))).toBe(true);
    expect(new Set(inTrace.map((span) => span.service))).toEqual(new Set(['starsgate-gateway', 'starsgate-worker']));
    // PostgreSQL statements and the HTTP calls to the upstreams are children in the same trace.
    const services = (predicate: (span: ReceivedSpan) => boolean) =>
      new Set(inTrace.filter(predicate).map((span) => span.service));
    expect(services((span) => attribute(span, 'db.system.name')?.stringValue === 'postgresql')).toEqual(
      new Set(['starsgate-gateway', 'starsgate-worker']),
    );
    const urls = inTrace.map((span) => attribute(span, 'url.full')?.stringValue ?? '').filter(Boolean);
    expect(urls.some((url) => url.includes('/toncenter/'))).toBe(true);
    expect(urls.some((url) => url.includes('/fragment/'))).toBe(true);

    // The worker's log lines for this purchase carry the POST's request id and the trace id.
    const workerLog = readFileSync(path.join(logDir, 'worker-1.log'), 'utf8');
    const lines = workerLog
      .split('\n')
      .filter((line) => line.includes(purchaseId))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.request_id).toBe(requestId);
      expect(line.trace_id).toBe(post.traceId);
    }

    // No exported byte holds a secret.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(wallet.seed);
    expect(exported).not.toContain(wallet.seed.split(' ').slice(0, 4).join(' '));
    expect(exported).not.toContain(stack.adminToken);
    for (const cookie of (demo.fragment?.cookies ?? stack.serviceEnv.FRAGMENT_COOKIES ?? '').split(/;\s*/)) {
      const value = cookie.split('=')[1];
      if (value && value.length > 8) expect(exported).not.toContain(value);
    }
  }, 240_000);
});
