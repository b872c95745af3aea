/**
 * The real sandbox (LocalChain + Fragment simulator over HTTP) on a free port, and the gateway
 * environment that points availability checks and prices at it. Faults are switched on the live
 * simulator; `calls(method)` counts what actually reached it.
 */
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { createTestGateway, type TestGateway } from './test-gateway';
import {
  defaultFaults,
  demoFragmentCookies,
  type FragmentConfigPatch,
  type FragmentSimulator,
} from '@starsgate/sandbox/fragment';

export const SANDBOX_SEED = 'gateway-reads-test';

export interface FragmentSandbox {
  sandbox: StartedSandbox;
  sim: FragmentSimulator;
  /** Gateway env: base URL, the demo login's cookies, short timeouts for fault tests. */
  env: Record<string, string>;
  calls(method: string): number;
  configure(patch: FragmentConfigPatch): void;
  /** Back to a healthy simulator (no faults, default prices). */
  heal(): void;
  close(): Promise<void>;
}

export async function startFragmentSandbox(config: FragmentConfigPatch = {}): Promise<FragmentSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    seed: SANDBOX_SEED,
    blockMs: 50,
    demoWallets: false,
    fragment: { latency: { minMs: 0, maxMs: 0 }, hangMs: 3_000, ...config },
  });
  const sim = sandbox.fragment;
  if (!sim) throw new Error('sandbox started without the Fragment simulator');
  const baseline = structuredClone(sim.config());
  return {
    sandbox,
    sim,
    env: {
      FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
      FRAGMENT_COOKIES: demoFragmentCookies(SANDBOX_SEED),
      // Short of the simulator's 3 s hang (its timeout faults), long enough for an answer on a
      // machine npm test loads with several suites at once (400 ms was not: 503s under load).
      FRAGMENT_READ_TIMEOUT_MS: '1500',
      FRAGMENT_READ_TRIES: '1',
      AVAILABILITY_DEADLINE_MS: '2000',
      PRICES_DEADLINE_MS: '2000',
      RATE_LIMIT_MAX: '100000',
    },
    calls: (method) => sim.stats().calls[method] ?? 0,
    configure: (patch) => sim.configure(patch),
    heal: () => {
      // `null` deletes a key (the simulator's mergeInto); the patch type omits null.
      sim.configure({ faults: { methods: null } } as unknown as FragmentConfigPatch);
      sim.configure({
        faults: { ...defaultFaults(), methods: {} },
        tonRate: baseline.tonRate,
        starPriceUsd: baseline.starPriceUsd,
        premiumPricesUsd: baseline.premiumPricesUsd,
        latency: baseline.latency,
      });
    },
    close: () => sandbox.close(),
  };
}

export interface FragmentGatewaySuite {
  /** The shared simulator (set once `beforeAll` has run). */
  readonly fragment: FragmentSandbox;
  /** A gateway on the simulator with its own Redis key prefix, so no test sees another's cache or budgets. */
  gateway(env?: Record<string, string>, options?: { redisKeyPrefix?: string }): Promise<TestGateway>;
}

/** Registers the suite's hooks: one simulator per file, healed after each test, and gateways closed at the end. */
export function useFragmentGateways(defaultEnv: Record<string, string> = {}): FragmentGatewaySuite {
  let fragment: FragmentSandbox | undefined;
  const gateways: TestGateway[] = [];
  beforeAll(async () => {
    fragment = await startFragmentSandbox();
  });
  afterEach(() => fragment?.heal());
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    await fragment?.close();
  });
  return {
    get fragment() {
      if (!fragment) throw new Error('the simulator starts in beforeAll');
      return fragment;
    },
    async gateway(env = {}, options = {}) {
      if (!fragment) throw new Error('the simulator starts in beforeAll');
      const created = await createTestGateway({ ...fragment.env, ...defaultEnv, ...env }, options);
      gateways.push(created);
      return created;
    },
  };
}
