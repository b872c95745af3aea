import {
  FragmentClient,
  FragmentSessionPool,
  LoginStates,
  RedisCookieStore,
  SessionLeases,
  sessionLeaseTtlMs,
  type LoginState,
} from '@starsgate/fragment';
import { ToncenterChainClient, type ChainClient } from '@starsgate/ton';
import { createRedisConnection, createToncenterPacer, instrumentUpstream, type Logger } from '@starsgate/platform';
import { SecretVault } from '@starsgate/db';
import type { WorkerConfig } from './config';
import { fragmentCookieCodec } from './fragment-cookie-codec';
import type { UpstreamHealth } from './observability/upstream-health';
import type { WorkerMetrics } from './observability/worker-metrics';

export interface Upstreams {
  chain: ChainClient;
  /** One client per configured Fragment login session. */
  fragment: FragmentSessionPool;
  /** Closes the Redis connections (the chain provider's shared rate limit, the sessions' leases). */
  close(): Promise<void>;
}

/**
 * The chain provider and the Fragment login sessions the worker pays through. Cookies never reach
 * a log. Chain calls share toncenter's rate limit with every other replica through Redis
 * (docs/ton.md §9). With `observability`, every call is timed and counted, and each session's
 * health tracked.
 */
export function createUpstreams(
  config: WorkerConfig,
  logger: Logger,
  observability?: { metrics: WorkerMetrics; health: UpstreamHealth },
): Upstreams {
  const pacingRedis = config.toncenterRps > 0 ? createRedisConnection(config.redisUrl) : undefined;
  const pacer = pacingRedis
    ? createToncenterPacer(
        { url: config.toncenterUrl, apiKey: config.toncenterApiKey, rps: config.toncenterRps },
        pacingRedis,
        observability?.metrics.chainRate,
      )
    : undefined;
  // One flow per Fragment session across every replica (docs/fragment-protocol.md §19.1).
  const leaseRedis = createRedisConnection(config.redisUrl);
  const leases = new SessionLeases(leaseRedis, {
    ttlMs: sessionLeaseTtlMs(config.fragmentTimeoutMs),
    callTimeoutMs: config.fragmentTimeoutMs,
  });
  // Every Set-Cookie kept per login, sealed, for every replica and a restart (§19.2).
  const cookieStore = new RedisCookieStore(leaseRedis, { codec: fragmentCookieCodec(new SecretVault(config.keyRing)) });
  const close = async (): Promise<void> => {
    if (pacingRedis) await pacingRedis.quit().catch(() => pacingRedis.disconnect());
    await leaseRedis.quit().catch(() => leaseRedis.disconnect());
  };
  const rawChain = new ToncenterChainClient({
    baseUrl: config.toncenterUrl,
    ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
    ...(pacer ? { pacer } : {}),
  });
  const sessions = (config.fragmentCookies.length > 0 ? config.fragmentCookies : ['']).map(
    (cookies) =>
      new FragmentClient({
        baseUrl: config.fragmentBaseUrl,
        cookies,
        timeoutMs: config.fragmentTimeoutMs,
        leases,
        cookieStore,
        logger: {
          debug: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          info: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          warn: (message: string) => logger.warn(message, { upstream: 'fragment' }),
        },
      }),
  );
  // Dead logins out of rotation for every replica, and shown to the operator (§19.3).
  const poolOptions = {
    states: new LoginStates(leaseRedis),
    onStateChange: (state: LoginState) => {
      if (state.alive) logger.info('fragment login alive again', { session: state.sessionId });
      else
        logger.error('fragment login dead: taken out of rotation', { session: state.sessionId, reason: state.reason });
    },
  };
  if (!observability) return { chain: rawChain, fragment: new FragmentSessionPool(sessions, poolOptions), close };
  const { metrics, health } = observability;
  return {
    chain: instrumentUpstream<ChainClient>(rawChain, 'chain', metrics.upstream, { observe: health.chainObserver }),
    fragment: new FragmentSessionPool(
      sessions.map((client, index) =>
        instrumentUpstream(client, 'fragment', metrics.upstream, {
          observe: health.fragmentObserver(index),
          scopes: ['exclusive'],
        }),
      ),
      poolOptions,
    ),
    close,
  };
}
