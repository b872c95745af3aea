/**
 * The real gateway the fuzzer talks to: built as main.ts builds it, listening on a real port, over
 * a worker harness's fresh PostgreSQL database, Redis, BullMQ queue, sealed-secret vault and the
 * sandbox (local chain with funded demo wallets, Fragment simulator for availability and prices).
 * The worker does not run unless a suite starts it, so between two requests nothing but the
 * gateway writes: what a rejected request stored shows in the snapshot.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { answerMalformedRequests } from '@starsgate/gateway';
import { WorkerHarness, type HarnessOptions } from '@starsgate/worker/testing';

export const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';

export interface FuzzStack {
  harness: WorkerHarness;
  /** The public listener. */
  port: number;
  /** The operator listener (`/admin`, `/admin/api`, `/metrics`). */
  adminPort: number;
  /** Where a path is served: the operator listener for the operator surfaces, the public one for the rest. */
  portFor(path: string): number;
  /** Everything a request could have stored, as one comparable string. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

/** Tables a request may write (purchases, their events and secrets, checkouts' BOCs, audit, webhooks). */
const STORED_TABLES = [
  'purchases',
  'purchase_events',
  'wallet_secrets',
  'signed_externals',
  'admin_actions',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'leases',
];

const OPERATOR_PATH = /^\/(admin|metrics)(\/|\?|#|$)/;

export async function startFuzzStack(options: HarnessOptions = {}): Promise<FuzzStack> {
  const harness = await WorkerHarness.start({ worker: false, ...options });
  const gateway = harness.gateway({ STARSGATE_ADMIN_TOKENS: ADMIN_TOKEN });
  const server: Server = gateway.app.listen(0, '127.0.0.1');
  const adminServer: Server = gateway.adminApp.listen(0, '127.0.0.1');
  answerMalformedRequests(server, gateway.app);
  answerMalformedRequests(adminServer, gateway.adminApp);
  await Promise.all(
    [server, adminServer].map((each) => new Promise<void>((resolve) => each.once('listening', () => resolve()))),
  );
  const { port } = server.address() as AddressInfo;
  const { port: adminPort } = adminServer.address() as AddressInfo;
  const tableDigests = `SELECT ${STORED_TABLES.map(
    (table) =>
      `(SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${table} t) AS ${table}`,
  ).join(', ')}`;

  return {
    harness,
    port,
    adminPort,
    portFor: (path) => (OPERATOR_PATH.test(path) ? adminPort : port),
    snapshot: async () => {
      const [{ rows }, jobs, sessionKeys] = await Promise.all([
        harness.database.pool.query<Record<string, string>>(tableDigests),
        harness.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'),
        harness.redis.keys('*admin-session*'),
      ]);
      const tables = STORED_TABLES.map((table) => `${table}=${rows[0]?.[table]}`);
      const queue = `queue=${JSON.stringify(jobs)}`;
      const sessions = `admin-sessions=${createHash('sha256').update(sessionKeys.sort().join(',')).digest('hex')}`;
      return [...tables, queue, sessions].join('\n');
    },
    close: async () => {
      for (const each of [server, adminServer]) each.closeAllConnections();
      await Promise.all([server, adminServer].map((each) => new Promise((resolve) => each.close(resolve))));
      await harness.close();
    },
  };
}

/** A 4xx must leave every table, the queue and the session store exactly as they were. */
export function storedChanges(before: string, after: string): string[] {
  const was = before.split('\n');
  return after.split('\n').filter((line, index) => line !== was[index]);
}
