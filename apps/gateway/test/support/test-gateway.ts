import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { FingerprintKeys, SecretVault, generateRingEntry, parseKeyRing, parseSealKey, sealKeyOf } from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { ToncenterChainClient } from '@starsgate/ton';
import type { PurchaseJobData } from '@starsgate/platform';
import type { Gateway } from '../../src/app';
import { loadGatewayConfig, type GatewayConfig } from '../../src/config';
import { createGateway } from '../../src/create-gateway';
import type { GatewayMetrics } from '../../src/observability/metrics';
import { capturingLogger } from './log-capture';

export { capturingLogger } from './log-capture';
export { dumpDatabase, dumpRedis } from './secret-dumps';

export interface TestGateway extends Gateway {
  database: TestDatabase;
  redis: Redis;
  queue: Queue<PurchaseJobData>;
  metrics: GatewayMetrics;
  /** The worker's side of the key ring, for tests that open what the gateway sealed; the gateway has only its public key. */
  vault: SecretVault;
  config: GatewayConfig;
  /** The gateway's own key of fingerprints and admin token ids. */
  fingerprints: FingerprintKeys;
  /** Every log line the gateway wrote, as serialised JSON. */
  logLines: string[];
  bullPrefix: string;
  close(): Promise<void>;
}

/** The real app on a fresh PostgreSQL database and this jest worker's Redis database. */
export async function createTestGateway(
  env: Record<string, string> = {},
  options: { redisKeyPrefix?: string } = {},
): Promise<TestGateway> {
  const database = await createTestDatabase();
  const bullPrefix = `test-${randomBytes(4).toString('hex')}`;
  const config = loadGatewayConfig({
    ...process.env,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'debug',
    // Webhook receivers in these tests listen on loopback.
    WEBHOOK_ALLOW_PRIVATE: 'loopback',
    ...env,
    // Its queues' own keys in this jest worker's Redis database.
    BULLMQ_PREFIX: bullPrefix,
  });
  const { logger, lines: logLines } = capturingLogger();
  const ring = parseKeyRing(generateRingEntry('t1'));
  const vault = new SecretVault(ring);
  const gateway = createGateway(config, {
    logger,
    database,
    sealer: parseSealKey(sealKeyOf(ring)),
    fingerprints: new FingerprintKeys(`f1:${randomBytes(32).toString('base64')}`),
    chain: new ToncenterChainClient({ baseUrl: config.toncenter.url, maxRetries: 0 }),
    redisKeyPrefix: options.redisKeyPrefix ?? bullPrefix,
  });
  const { redis, queue, metrics, fingerprints } = gateway.deps;
  return {
    ...gateway,
    fingerprints,
    database,
    redis,
    queue,
    metrics,
    vault,
    config,
    logLines,
    bullPrefix,
    close: async () => {
      await gateway.close();
      await database.drop();
    },
  };
}

/** Public test vector (docs/ton.md §1.3): V5R1 mainnet addresses of indices 0 and 1. */
export const BIP39_PHRASE = 'cook voyage document eight skate token alien guide drink uncle term abuse';
export const BIP39_INDEX0_V5R1 = 'UQASomfWf2V7N46QrW4umfpARQBwKORp_z6I_8u2jUG29cYa';
export const BIP39_INDEX1_V5R1 = 'UQD3CRdkxEJL89-0TvBLTon261m8ImL2ivGgQ_50OW-XhKpY';

let keyCounter = 0;
export function uniqueKey(label = 'order'): string {
  keyCounter += 1;
  return `${label}-${process.pid}-${Date.now()}-${keyCounter}`;
}

export function starsOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    seed: BIP39_PHRASE,
    account_index: 0,
    idempotency_key: uniqueKey(),
    ...overrides,
  };
}
