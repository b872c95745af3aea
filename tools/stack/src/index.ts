/**
 * `@starsgate/stack`, the one stack launcher (chaos, soak, bench:cost, `npm start`, the SDKs' and
 * the tracing tests): see stack.ts.
 */
export { freePort, sleep, waitForHttp } from '@starsgate/platform/testing';
export { ManagedProcess, type ProcessKind, type ProcessSpec } from './managed-process';
export { PostgresCluster, type ClusterOptions } from './postgres-cluster';
export { RedisServer } from './redis-server';
export { PgBouncer, pgbouncerBinary, PGBOUNCER_CONNECT_QUERIES, type PgBouncerOptions } from './pgbouncer';
export { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';
export { upstreamEnv, type SandboxDemo } from './service-env';
export {
  buildIsFresh,
  bundleEntry,
  bundleIsFresh,
  ENTRYPOINTS,
  freshBuild,
  freshBundle,
  REPO_ROOT,
  SOURCE_ENTRYPOINTS,
  type ServiceKind,
} from './entrypoints';
export { startStack, type Stack, type StackOptions } from './stack';
export { SERVICE_HEAP_FLAGS, withHeapFlags } from './heap-flags';
export { generatedServiceKeys, serviceKeys, type ServiceKeys } from './service-keys';
export { WebhookEndpoint, type VerifiedWebhookEvent } from './webhook-endpoint';
export {
  readToncenterTraffic,
  runToncenterEnv,
  runToncenterRateLimit,
  RUN_TONCENTER_TIER,
  type ToncenterTraffic,
} from './toncenter-tier';
export { SANDBOX_ENV_FILE, writeSandboxEnvFile } from './sandbox-env-file';
export { serveUntilClosed } from './serve-until-closed';
