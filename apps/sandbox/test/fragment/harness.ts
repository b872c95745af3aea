import express from 'express';
import request from 'supertest';
import { LocalChain } from '../../src/chain/local-chain';
import {
  createFragmentSimulator,
  demoFragmentCookies,
  type FragmentConfigPatch,
  type FragmentSimulator,
} from '../../src/fragment';

export const SEED = 'fragment-test-seed';

/** Config that keeps tests fast: no latency, tiny delivery delays. */
export const FAST: FragmentConfigPatch = {
  latency: { minMs: 0, maxMs: 0 },
  processingDelay: { minMs: 50, maxMs: 50 },
  doneDelay: { minMs: 200, maxMs: 200 },
  hangMs: 3_000,
};

export interface Harness {
  chain: LocalChain;
  sim: FragmentSimulator;
  app: express.Express;
  close(): Promise<void>;
}

export async function createHarness(
  config: FragmentConfigPatch = {},
  opts: { blockMs?: number; clock?: () => number } = {},
): Promise<Harness> {
  const chain = await LocalChain.create({ dataDir: null, blockMs: opts.blockMs ?? 50 });
  const sim = createFragmentSimulator({ chain, seed: SEED, config: { ...FAST, ...config }, clock: opts.clock });
  const app = express();
  app.use('/fragment', sim.router);
  app.use('/admin/fragment', sim.admin);
  return {
    chain,
    sim,
    app,
    close: async () => {
      sim.close();
      await chain.close();
    },
  };
}

export type Json = Record<string, any>;

/** A Fragment client the way the real adapter behaves: cookies, page → hash, form POSTs. */
export class TestClient {
  readonly agent: ReturnType<typeof request.agent>;
  hash = '';

  constructor(
    readonly app: express.Express,
    private readonly cookieHeader?: string,
  ) {
    this.agent = request.agent(app);
  }

  /** This client's `stel_ssid` (the cookie session the simulator keys page state and switches by). */
  ssid(): string {
    return /stel_ssid=([^;]+)/.exec(this.cookieHeader ?? '')?.[1] ?? '';
  }

  private withCookies<T extends request.Test>(req: T): T {
    return this.cookieHeader ? req.set('Cookie', this.cookieHeader) : req;
  }

  async page(path = '/stars/buy', headers: Record<string, string> = {}): Promise<request.Response> {
    const res = await this.withCookies(this.agent.get(`/fragment${path}`).set(headers));
    const match = /api\?hash=([0-9a-f]+)/.exec(res.text);
    if (match) this.hash = match[1]!;
    return res;
  }

  raw(method: string, fields: Record<string, string | number> = {}, hash = this.hash): request.Test {
    const form = new URLSearchParams({
      method,
      ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
    });
    return this.withCookies(
      this.agent
        .post(`/fragment/api?hash=${hash}`)
        .set('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8')
        .set('X-Requested-With', 'XMLHttpRequest')
        .send(form.toString()),
    );
  }

  async api(method: string, fields: Record<string, string | number> = {}, hash = this.hash): Promise<Json> {
    const res = await this.raw(method, fields, hash);
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text) as Json;
  }
}

let ssidCounter = 0;
/** The demo login cookies with a fresh `stel_ssid`, so that tests do not share page state. */
export function freshDemoCookies(): string {
  const ssid = `${(++ssidCounter).toString(16).padStart(18, '0')}_${String(Date.now()).padStart(19, '0')}`;
  return demoFragmentCookies(SEED).replace(/stel_ssid=[^;]+/, `stel_ssid=${ssid}`);
}

/** A logged-in client (demo tokens, fresh session) that has loaded the page. */
export async function loggedInClient(h: Harness, path = '/stars/buy'): Promise<TestClient> {
  const client = new TestClient(h.app, freshDemoCookies());
  await client.page(path);
  return client;
}
