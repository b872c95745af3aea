import {
  FragmentClient,
  FragmentSessionPool,
  LoginStates,
  RedisCookieStore,
  SessionLeases,
  sessionLeaseTtlMs,
  proxyForLogin,
  type LoginState,
} from '@starsgate/fragment';
import { backgroundPacer, ToncenterChainClient, type ChainClient, type RequestPacer } from '@starsgate/ton';
import { createRedisConnection, createToncenterPacer, instrumentUpstream, type Logger } from '@starsgate/platform';
import { SecretVault } from '@starsgate/db';
import type { WorkerConfig } from './config';
import { fragmentCookieCodec } from './fragment-cookie-codec';
import { watchCookiesFile } from './fragment-cookies-file';
import type { UpstreamHealth } from './observability/upstream-health';
import type { WorkerMetrics } from './observability/worker-metrics';

export interface Upstreams {
  chain: ChainClient;
  /**
   * The same provider and shared rate for the checkout watch, whose turns are background ones:
   * purchases' reads go first (docs/security.md, attack 17).
   */
  watchChain: ChainClient;
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
  // One flow per Fragment session across every replica (docs/fragment-protocol.md §20.1).
  const leaseRedis = createRedisConnection(config.redisUrl);
  const leases = new SessionLeases(leaseRedis, {
    ttlMs: sessionLeaseTtlMs(config.fragmentTimeoutMs),
    callTimeoutMs: config.fragmentTimeoutMs,
  });
  // Every Set-Cookie kept per login, sealed, for every replica and a restart (§20.2).
  const cookieStore = new RedisCookieStore(leaseRedis, { codec: fragmentCookieCodec(new SecretVault(config.keyRing)) });
  const toncenter = (paced: RequestPacer | undefined) =>
    new ToncenterChainClient({
      baseUrl: config.toncenterUrl,
      ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
      ...(paced ? { pacer: paced } : {}),
    });
  const rawChain = toncenter(pacer);
  const rawWatchChain = toncenter(pacer ? backgroundPacer(pacer) : undefined);
  const built = new Map<string, FragmentClient>();
  /** One client per login, the same one again while its cookies are unchanged (instrumented by position). */
  const clientFor = (cookies: string, index: number): FragmentClient => {
    const known = built.get(cookies);
    if (known) return known;
    const raw = new FragmentClient({
      baseUrl: config.fragmentBaseUrl,
      cookies,
      proxyUrl: proxyForLogin(config.fragmentProxyUrls, index),
      timeoutMs: config.fragmentTimeoutMs,
      leases,
      cookieStore,
      logger: {
        debug: (message: string) => logger.debug(message, { upstream: 'fragment' }),
        info: (message: string) => logger.debug(message, { upstream: 'fragment' }),
        warn: (message: string) => logger.warn(message, { upstream: 'fragment' }),
      },
    });
    const client = observability
      ? instrumentUpstream(raw, 'fragment', observability.metrics.upstream, {
          observe: observability.health.fragmentObserver(index),
          scopes: ['exclusive'],
        })
      : raw;
    built.set(cookies, client);
    return client;
  };
  const clientsOf = (sets: readonly string[]) => (sets.length > 0 ? sets : ['']).map(clientFor);
  // Dead logins out of rotation for every replica, and shown to the operator (§20.3).
  const fragment = new FragmentSessionPool(clientsOf(config.fragmentCookies), {
    states: new LoginStates(leaseRedis),
    onStateChange: (state: LoginState) => {
      if (state.alive) logger.info('fragment login alive again', { session: state.sessionId });
      else
        logger.error('fragment login dead: taken out of rotation', { session: state.sessionId, reason: state.reason });
    },
  });
  // Logins renewed by rewriting FRAGMENT_COOKIES_FILE are used without a restart (§20.2).
  const { variable, file } = config.fragmentCookieSources;
  const watcher = file
    ? watchCookiesFile({
        path: file.path,
        intervalMs: file.pollMs,
        initial: file.text,
        onChange: (fileSets) => {
          const sets = [...variable, ...fileSets];
          if (sets.length === 0) {
            logger.warn('FRAGMENT_COOKIES_FILE now names no login: the logins in use are kept');
            return;
          }
          logger.info('fragment logins reloaded from FRAGMENT_COOKIES_FILE', { logins: sets.length });
          fragment.reconfigure(clientsOf(sets)).catch((error: unknown) => {
            logger.warn('fragment logins reloaded, but their states not updated', { error });
          });
        },
        onError: (error) => logger.warn('FRAGMENT_COOKIES_FILE not read; the logins in use are kept', { error }),
      })
    : undefined;
  const close = async (): Promise<void> => {
    watcher?.stop();
    if (pacingRedis) await pacingRedis.quit().catch(() => pacingRedis.disconnect());
    await leaseRedis.quit().catch(() => leaseRedis.disconnect());
  };
  const chain = observability
    ? instrumentUpstream<ChainClient>(rawChain, 'chain', observability.metrics.upstream, {
        observe: observability.health.chainObserver,
      })
    : rawChain;
  // Counted, but not in the chain's health figures: its calls include waits for spare turns.
  const watchChain = observability
    ? instrumentUpstream<ChainClient>(rawWatchChain, 'chain', observability.metrics.upstream)
    : rawWatchChain;
  return { chain, watchChain, fragment, close };
}
