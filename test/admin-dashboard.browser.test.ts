/**
 * The operator dashboard in headless Chromium (chromiumLaunchOptions: the system's, else the one inside
 * @sparticuz/chromium; driven by playwright-core) on the running stack: log in, watch the pipeline numbers move while purchases run, open the
 * reconciliation case a sandbox fault produced, resolve it with the paying transaction, see the
 * operator's entry in the timeline, open Bull Board, log out. Screenshots go to a temporary
 * folder (`screenshotPath`); `npm run screenshots` sends them to the README's docs/screenshots/.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { adminTokenId } from '@starsgate/gateway';
import { gatewayKeys } from './security/support/stack-client';
import { chromiumLaunchOptions, screenshotPath, waitFor } from '@starsgate/platform/testing';
import { startStack, type RunningStack } from './support/running-stack';

jest.setTimeout(300_000);

const OPERATOR = 'Olga Ops';

let stack: RunningStack;
let browser: Browser;
let page: Page;

interface DemoWallet {
  id: string;
  seed: string;
  accountIndex?: number;
}
let wallets: DemoWallet[];

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function purchase(walletId: string, username: string, key: string): Promise<string> {
  const wallet = wallets.find((entry) => entry.id === walletId)!;
  const body = {
    product: 'stars',
    username,
    amount: 50,
    payment_method: 'gram',
    seed: wallet.seed,
    ...(wallet.accountIndex !== undefined ? { account_index: wallet.accountIndex } : {}),
    idempotency_key: key,
  };
  const created = await json<{ purchase_id: string }>(`${stack.gatewayUrl}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return created.purchase_id;
}

async function adminGet<T>(pathname: string): Promise<T> {
  return json<T>(`${stack.adminUrl}${pathname}`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
}

async function waitForStatus(id: string, status: string, timeoutMs = 60_000): Promise<void> {
  let last = '';
  await waitFor(
    async () => {
      last = (await adminGet<{ status: string }>(`/admin/api/purchases/${id}`)).status;
      return last === status;
    },
    { timeoutMs, intervalMs: 250, what: () => `purchase ${id} to be ${status} (it is ${last})` },
  );
}

const count = async (status: string): Promise<number> =>
  Number(await page.locator(`[data-testid=count-${status}]`).innerText());

const shot = (name: string) => page.screenshot({ path: screenshotPath(name) });

beforeAll(async () => {
  const launchOptions = chromiumLaunchOptions();
  stack = await startStack({ CONFIRMING_MAX_AGE_MS: '8000', POLL_INTERVAL_MS: '300' });
  wallets = (await json<{ wallets: DemoWallet[] }>(`${stack.sandboxUrl}/demo`)).wallets;
  browser = await chromium.launch(launchOptions);
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

test('log in with the admin token', async () => {
  await page.goto(`${stack.adminUrl}/admin`);
  await page.getByLabel('Your name').fill(OPERATOR);
  await page.getByLabel('Admin token').fill(stack.adminToken);
  await shot('login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('[data-testid=count-completed]').waitFor();
  expect(await page.locator('[data-testid=operator]').innerText()).toBe(OPERATOR);
  const cookies = await page.context().cookies();
  expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite])).toEqual([
    ['starsgate_admin', true, 'Strict'],
  ]);
});

test('the pipeline numbers move by themselves while purchases run', async () => {
  await waitFor(async () => Number.isInteger(await count('completed')), {
    timeoutMs: 20_000,
    intervalMs: 300,
    what: 'the counts to load',
  });
  const before = await count('completed');
  const ids = await Promise.all([
    purchase('bip39-0', '@alice', `browser-1-${Date.now()}`),
    purchase('bip39-1', '@bob', `browser-2-${Date.now()}`),
    purchase('ton24-v4r2', '@carol', `browser-3-${Date.now()}`),
  ]);
  // No reload: the page refreshes itself every 5 s.
  await waitFor(async () => (await count('completed')) >= before + ids.length, {
    timeoutMs: 90_000,
    intervalMs: 300,
    what: 'the completed count to grow',
  }).catch(async (error: unknown) => {
    const rows = await Promise.all(
      ids.map((id) => adminGet<{ status: string; events: unknown[] }>(`/admin/api/purchases/${id}`)),
    );
    throw new Error(`${String(error)}; purchases: ${JSON.stringify(rows)}\n${stack.output().slice(-3000)}`);
  });
  expect(await count('completed')).toBe(before + ids.length);
  await waitFor(async () => (await page.locator('[data-testid=fragment-session-0]').innerText()).includes('valid'), {
    timeoutMs: 20_000,
    intervalMs: 300,
    what: 'a Fragment session reported valid',
  });
  // Each Fragment login as the workers record it in Redis: alive, with its last order.
  await waitFor(
    async () => (await page.locator('[data-testid^=fragment-login-]').first().innerText()).includes('alive'),
    { timeoutMs: 20_000, intervalMs: 300, what: 'a Fragment login shown alive' },
  );
  await shot('pipeline');
});

test('a sandbox fault leaves a reconciliation case; the console resolves it and shows the audit entry', async () => {
  await json(`${stack.sandboxUrl}/admin/fragment/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ done: 'never' }),
  });
  let id: string;
  try {
    id = await purchase('base64-v5r1', '@dave', `browser-case-${Date.now()}`);
    await waitForStatus(id, 'reconciliation_required');
  } finally {
    await json(`${stack.sandboxUrl}/admin/fragment/faults/reset`, { method: 'POST' });
  }

  await page.getByRole('link', { name: 'Reconciliation' }).click();
  await page.locator(`a[href="#/reconciliation/${id}"]`).click();
  await page.locator('[data-testid=purchase-detail]').waitFor();
  expect(await page.locator('[data-testid=detail-status]').innerText()).toBe('reconciliation_required');
  expect(await page.locator('[data-testid=evidence]').innerText()).toContain('tx_hash');
  // Money as people read it, not nanoGRAM.
  const payment = await page.locator('[data-testid=payment]').innerText();
  const { paid_amount: paid } = await adminGet<{ paid_amount: { quote: string; quote_human: string } }>(
    `/admin/api/purchases/${id}`,
  );
  expect(paid.quote_human).toMatch(/^[0-9]+(\.[0-9]+)? GRAM$/);
  expect(payment).toMatch(new RegExp(`Invoice\\s+${paid.quote_human.replace('.', '\\.')}`));
  expect(payment).not.toContain(paid.quote);
  await shot('reconciliation-case');

  const form = page.getByRole('form', { name: 'Resolve this case' });
  expect(await form.getByLabel('Operator').inputValue()).toBe(OPERATOR);
  expect(await form.getByLabel(/Transaction hash/).inputValue()).toMatch(/^[0-9a-f]{64}$/);
  await form.getByLabel(/Reason/).fill('Fragment shows the 50 Stars delivered to @dave; checked by hand.');
  await form.getByRole('button', { name: 'Resolve as completed' }).click();

  await waitFor(async () => (await page.locator('[data-testid=detail-status]').innerText()) === 'completed', {
    timeoutMs: 20_000,
    intervalMs: 300,
    what: 'the case to show completed',
  });
  const timeline = await page.locator('[data-testid=timeline]').innerText();
  expect(timeline).toContain('reconciliation_required → completed');
  expect(timeline).toContain(`token:${adminTokenId(stack.adminToken, gatewayKeys(stack))} (operator: ${OPERATOR})`);
  expect(timeline).toContain('checked by hand');
  await page.locator('.event-operator').scrollIntoViewIfNeeded();
  await shot('reconciliation-resolved');

  const stored = await adminGet<{ status: string; events: Array<{ type: string; actor: string }> }>(
    `/admin/api/purchases/${id}`,
  );
  expect(stored.status).toBe('completed');
  expect(stored.events.at(-1)).toMatchObject({
    type: 'operator',
    actor: `token:${adminTokenId(stack.adminToken, gatewayKeys(stack))}`,
  });
});

test('order search finds purchases by username and opens one with its timeline', async () => {
  await page.getByRole('link', { name: 'Orders' }).click();
  await page.getByPlaceholder(/idempotency key/).fill('@alice');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('table.rows tbody tr').first().click();
  await page.locator('[data-testid=timeline]').waitFor();
  expect(await page.locator('[data-testid=detail-status]').innerText()).toBe('completed');
  await shot('order-detail');
});

test('orders filter by any product the operator document lists', async () => {
  const document = await adminGet<{
    paths: Record<string, { get: { parameters: Array<{ name: string; schema: { enum?: string[] } }> } }>;
  }>('/admin/api/openapi.json');
  const products = document.paths['/admin/api/purchases']!.get.parameters.find((p) => p.name === 'product')!.schema
    .enum!;
  expect(products).toEqual(expect.arrayContaining(['stars', 'gram']));
  await page.goto(`${stack.adminUrl}/admin#/orders`);
  const select = page.locator('form.search select[name="product"]');
  await waitFor(async () => (await select.locator('option').count()) === products.length + 1, {
    timeoutMs: 10_000,
    intervalMs: 200,
    what: 'the product filter to list the products',
  });
  expect(
    await select.locator('option').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value'))),
  ).toEqual(['', ...products]);
  await page.getByPlaceholder(/idempotency key/).fill('');
  await select.selectOption('stars');
  await page.getByRole('button', { name: 'Search' }).click();
  const rows = page.locator('table.rows tbody tr');
  await waitFor(
    async () => decodeURIComponent(page.url()).endsWith('/orders/product=stars') && (await rows.count()) > 0,
    {
      timeoutMs: 10_000,
      intervalMs: 200,
      what: 'the orders of product stars',
    },
  );
  for (const text of await rows.allInnerTexts()) expect(text).toMatch(/\bstars\b/);
  await select.selectOption('gram');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('No purchases match.').waitFor();
  await select.selectOption('');
  await page.getByRole('button', { name: 'Search' }).click();
});

test('dark theme', async () => {
  await page.getByRole('link', { name: 'Pipeline' }).click();
  await page.getByLabel('Theme').selectOption('dark');
  await waitFor(async () => (await page.locator('html').getAttribute('data-theme')) === 'dark', {
    timeoutMs: 5_000,
    intervalMs: 300,
    what: 'the dark theme',
  });
  await page.locator('[data-testid=throughput-chart] canvas').waitFor();
  await shot('pipeline-dark');
  await page.getByLabel('Theme').selectOption('light');
});

test('Bull Board lists every queue behind the same login', async () => {
  await page.getByRole('link', { name: 'Queues' }).click();
  await page.waitForURL(/\/admin\/queues/);
  await page.getByText('webhook-deliveries').first().waitFor();
  expect(await page.getByText('purchases').count()).toBeGreaterThan(0);
  await shot('bull-board');
});

test('logging out ends the session', async () => {
  await page.goto(`${stack.adminUrl}/admin`);
  const [session] = await page.context().cookies();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByLabel('Admin token').waitFor();
  // The browser's own cookie jar no longer opens the admin API.
  expect((await page.request.get(`${stack.adminUrl}/admin/api/stats`)).status()).toBe(401);
  // Nor does the old cookie, replayed: the session is gone on the server.
  const replayed = await fetch(`${stack.adminUrl}/admin/api/stats`, {
    headers: { cookie: `${session!.name}=${session!.value}` },
  });
  expect(replayed.status).toBe(401);
  await page.goto(`${stack.adminUrl}/admin/queues`);
  await page.getByLabel('Admin token').waitFor();
});

test('the public API docs render under their Content-Security-Policy, which the page never trips', async () => {
  const docs = await browser.newPage();
  const violations: string[] = [];
  docs.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  // Chromium logs most violations to the console itself; the event catches the rest.
  await docs.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (event) => console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI));",
  });
  const response = await docs.goto(`${stack.gatewayUrl}/docs/`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  // The title comes from /openapi.json: Swagger UI's scripts ran and fetched it.
  await docs.locator('.swagger-ui .info .title').waitFor();
  await docs.locator('.opblock-summary-path', { hasText: '/api/v1/purchases' }).first().click();
  await docs.locator('.opblock-body').first().waitFor();
  await docs.screenshot({ path: screenshotPath('api-docs') });
  expect(violations).toEqual([]);
  await docs.close();
});
