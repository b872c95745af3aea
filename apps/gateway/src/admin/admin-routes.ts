import type { Express } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  AdminPurchaseReads,
  PipelineReads,
  PurchaseTransitions,
  UpstreamFormatErrorRepository,
  WebhookDeliveries,
  WebhookEndpoints,
  type DatabaseHandle,
  type SecretSealing,
  type FingerprintKeys,
} from '@starsgate/db';
import type { ChainClient } from '@starsgate/ton';
import type { GatewayConfig } from '../config';
import { jsonBody } from '../http/json-body';
import { adminOpenApi } from '../openapi/admin.openapi';
import { buildOperatorOpenApiDocument } from '../openapi/operator-openapi-document';
import { adminAuth } from './admin-auth';
import type { AdminAuthFailures } from './admin-auth-failures';
import { adminFragmentSessionsRoutes } from './admin-fragment-sessions.routes';
import { adminPipelineRoutes } from './admin-pipeline.routes';
import { adminPurchasesRoutes } from './admin-purchases.routes';
import { adminStatsRoutes } from './admin-stats.routes';
import { webhooksRoutes } from './webhooks.routes';

export interface AdminDeps {
  config: GatewayConfig;
  database: DatabaseHandle;
  sealer: SecretSealing;
  chain: ChainClient;
  /** Every BullMQ queue the service uses, for the stats. */
  queues: readonly Queue[];
  /** Where workers publish their upstream health (the pipeline view reads it). */
  redis: Redis;
  bullPrefix: string;
  /** Failed token checks, shared with the dashboard's login. */
  authFailures: AdminAuthFailures;
  /** The key of admin token ids in audit records (admin-token-id.ts). */
  fingerprints: FingerprintKeys;
}

/**
 * The operator API under `/admin/api`, behind its bearer tokens. Mounted only when tokens are
 * configured: otherwise these routes do not exist (404 like any unknown path).
 */
export function mountAdminApi(app: Express, deps: AdminDeps): void {
  if (deps.config.adminTokens.length === 0) return;
  const { db } = deps.database;
  const reads = new AdminPurchaseReads(db);
  app.use(
    '/admin/api',
    adminAuth(deps.config.adminTokens, deps.authFailures, deps.fingerprints),
    jsonBody(deps.config.bodyLimitBytes),
  );
  const document = buildOperatorOpenApiDocument(adminOpenApi);
  app.get('/admin/api/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use(
    adminPurchasesRoutes({
      reads,
      transitions: new PurchaseTransitions(db),
      chain: deps.chain,
      network: deps.config.network,
      validUntilMarginMs: deps.config.validUntilMarginMs,
    }),
  );
  app.use(
    adminStatsRoutes({ reads, upstreamFormatErrors: new UpstreamFormatErrorRepository(db), queues: deps.queues }),
  );
  app.use(adminPipelineRoutes({ pipeline: new PipelineReads(db), redis: deps.redis, bullPrefix: deps.bullPrefix }));
  app.use(adminFragmentSessionsRoutes({ redis: deps.redis }));
  app.use(
    webhooksRoutes({
      endpoints: new WebhookEndpoints(db, deps.sealer),
      deliveries: new WebhookDeliveries(db),
      urlPolicy: { allowHttp: deps.config.webhookAllowHttp, allowPrivate: deps.config.webhookAllowPrivate },
    }),
  );
}
