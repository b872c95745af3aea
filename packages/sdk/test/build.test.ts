/**
 * The package as published: ESM and CJS builds with declarations, loadable by Node, no runtime
 * dependency, and the ESM build working in a real browser (the system's Chromium, or the one inside @sparticuz/chromium), where the calls
 * that carry a seed refuse to run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '@starsgate/platform/testing';

const SDK = path.resolve(__dirname, '..');

describe('@starsgate/sdk build', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: SDK, stdio: 'pipe' });
  }, 120_000);

  it('emits ESM and CJS with declarations', () => {
    for (const file of ['esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts', 'esm/package.json'])
      expect(existsSync(path.join(SDK, 'dist', file))).toBe(true);
  });

  it('require() and import() both load it by its name, through the exports map', () => {
    const manifest = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const name = JSON.stringify(manifest.name);
    const script = [
      `const cjs = require(${name});`,
      `import(${name}).then((esm) => {`,
      `  const ok = typeof cjs.Starsgate === "function" && typeof esm.Starsgate === "function" && esm.VERSION === ${JSON.stringify(manifest.version)};`,
      '  const sdk = new esm.Starsgate({ baseURL: "http://127.0.0.1:1" });',
      '  process.stdout.write(JSON.stringify({ ok, routes: Object.keys(cjs.ROUTES).length, base: sdk.baseURL }));',
      '});',
    ].join('\n');
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: SDK, encoding: 'utf8' })) as Record<
      string,
      unknown
    >;
    expect(out).toEqual({ ok: true, routes: 11, base: 'http://127.0.0.1:1' });
  });

  it('has no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
  });
});

describe('@starsgate/sdk in a browser', () => {
  const hits: string[] = [];
  const apiHeaders: string[][] = [];
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    // The page, the ESM build and a stand-in for two gateway routes, from one origin.
    const vectors = readFileSync(path.join(SDK, 'test/fixtures/webhook-vectors.json'));
    server = createServer((req, res) => {
      const url = req.url ?? '/';
      hits.push(`${req.method} ${url}`);
      if (url.startsWith('/api/')) apiHeaders.push(Object.keys(req.headers));
      if (url === '/') {
        res.setHeader('content-type', 'text/html');
        return res.end(readFileSync(path.join(SDK, 'test/fixtures/browser/index.html')));
      }
      if (url.startsWith('/sdk/')) {
        res.setHeader('content-type', 'text/javascript');
        return res.end(readFileSync(path.join(SDK, 'dist/esm', url.slice('/sdk/'.length))));
      }
      if (url === '/vectors.json') return res.end(vectors);
      res.setHeader('content-type', 'application/json');
      if (url === '/api/v1/prices') return res.end(JSON.stringify({ stale: false, stars: {}, premium: {} }));
      res.statusCode = 404;
      res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'No such route.', details: [], request_id: 'r' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('reads work, seed-carrying calls refuse before any request, webhooks verify with Web Crypto', async () => {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    const result = await page.evaluate(async () => {
      type Sdk = typeof import('../src/index');
      const sdk = (window as unknown as { sdk: Sdk }).sdk;
      const client = new sdk.Starsgate({ baseURL: location.origin });
      const prices = await client.getPrices();
      const refusals: string[] = [];
      const seed = 'abandon ability able about above absent absorb abstract absurd abuse access accident';
      for (const call of [
        () =>
          client.createPurchase({
            product: 'stars',
            username: '@a',
            amount: 50,
            payment_method: 'gram',
            seed,
            idempotency_key: 'k',
          }),
        () => client.buyStars({ username: '@a', amount: 50, payment_method: 'gram', seed }),
        () => client.resolveWallet({ seed }),
      ])
        refusals.push(
          await call().then(
            () => 'sent',
            (error: Error) => error.name,
          ),
        );
      const vectors = (await (await fetch('/vectors.json')).json()) as {
        body: string;
        header: string;
        secret: string;
        timestamp: number;
      };
      const event = await sdk.verifyWebhook(vectors.body, vectors.header, vectors.secret, { now: vectors.timestamp });
      const forged = await sdk
        .verifyWebhook(vectors.body, vectors.header, 'wrong', { now: vectors.timestamp })
        .catch((error: Error) => error.name);
      return { stale: prices.stale, refusals, event: event.type, forged };
    });
    expect(result).toEqual({
      stale: false,
      refusals: ['BrowserSecretError', 'BrowserSecretError', 'BrowserSecretError'],
      event: 'purchase.completed',
      forged: 'WebhookVerificationError',
    });
    expect(hits.filter((hit) => hit.includes('/api/v1/purchases') || hit.includes('/wallets/'))).toEqual([]);
    // No custom header: a cross-origin gateway would need a CORS preflight allowing it.
    expect(apiHeaders.flat().filter((name) => name.startsWith('x-starsgate'))).toEqual([]);
    await page.close();
  });
});
