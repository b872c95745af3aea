/**
 * The real gateway app over a WorkerHarness's database, queue and sandbox chain, so a test drives
 * checkouts through HTTP while the harness's worker prepares, confirms and delivers them.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Express } from 'express';
import { FingerprintKeys, parseKeyRing, parseSealKey, sealKeyOf } from '@starsgate/db';
import type { Redis } from 'ioredis';
import type { SendTransactionRequest } from '@starsgate/ton';
import { createGateway, loadGatewayConfig } from '@starsgate/gateway';
import { capturingLogger } from '@starsgate/gateway/testing';
import type { WorkerHarness } from './worker-harness';

export interface CheckoutGateway {
  app: Express;
  /** The operator listener's app (`/metrics`, `/admin/api`). */
  adminApp: Express;
  logLines: string[];
  redis: Redis;
  close(): Promise<void>;
}

export function startCheckoutGateway(h: WorkerHarness, env: Record<string, string> = {}): CheckoutGateway {
  const config = loadGatewayConfig({
    DATABASE_URL: h.database.url,
    REDIS_URL: h.env.REDIS_URL!,
    BULLMQ_PREFIX: h.bullPrefix,
    TON_NETWORK: 'mainnet',
    TONCENTER_URL: h.env.TONCENTER_URL!,
    USDT_MASTER_ADDRESS: h.env.USDT_MASTER_ADDRESS!,
    FRAGMENT_BASE_URL: h.env.FRAGMENT_BASE_URL!,
    RATE_LIMIT_MAX: '100000',
    // The worker's checkout tests submit many BOCs to one checkout; the limits have their own test (attack 17).
    CHECKOUT_SUBMISSIONS_PER_MINUTE: '1000',
    LOG_LEVEL: 'debug',
    ...env,
  });
  const { logger, lines: logLines } = capturingLogger();
  const gateway = createGateway(config, {
    logger,
    // A DATABASE_URL of its own (another role): the gateway connects with it.
    ...(env.DATABASE_URL ? {} : { database: h.database }),
    queue: h.queue,
    sealer: parseSealKey(sealKeyOf(parseKeyRing(h.env.STARSGATE_SECRET_KEY!))),
    fingerprints: new FingerprintKeys(`f1:${randomBytes(32).toString('base64')}`),
    chain: h.chain,
    redisKeyPrefix: `gw-${randomBytes(3).toString('hex')}`,
  });
  return {
    app: gateway.app,
    adminApp: gateway.adminApp,
    logLines,
    redis: gateway.deps.redis,
    close: () => gateway.close(),
  };
}

/** The JSON bodies the checkout and purchase routes answer with, typed for tests. */
export interface ApiBody {
  checkout_id?: string;
  purchase_id?: string;
  status?: string;
  status_url?: string;
  code?: string;
  action?: string;
  details?: Array<{ field: string; message: string }>;
  transaction?: SendTransactionRequest;
  transaction_hash?: string;
  valid_until?: string;
  prices?: { gram?: string; usdt?: string };
  error?: { code: string; message: string; action?: string; details?: Array<Record<string, string>> };
  [key: string]: unknown;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: ApiBody;
}

function answer(res: request.Response): ApiAnswer {
  return { status: res.status, headers: res.headers, body: res.body as ApiBody };
}

export async function get(app: Express, path: string): Promise<ApiAnswer> {
  return answer(await request(app).get(path));
}

export async function post(app: Express, path: string, body: object): Promise<ApiAnswer> {
  return answer(await request(app).post(path).send(body));
}

/** Polls GET /api/v1/checkouts/:id until one of `statuses`. */
export async function waitForCheckout(
  app: Express,
  id: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<ApiBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await get(app, `/api/v1/checkouts/${id}`);
    if (statuses.includes(body.status!)) return body;
    if (Date.now() > deadline)
      throw new Error(
        `checkout ${id} stuck in ${String(body.status)} (wanted ${statuses.join('|')}): ${JSON.stringify(body)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
