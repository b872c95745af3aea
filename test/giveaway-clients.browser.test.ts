/**
 * Issue 38's clients on a Premium giveaway, in headless Chromium on the running stack (`npm start`:
 * the gateway, the worker and the sandbox's Fragment simulator): the demo checkout page offers every
 * product of `GET /api/v1/products`, and a buyer gives Premium to 10 winners of a channel for 3
 * months, pays with the in-page sandbox wallet and follows it to its end; the admin UI then shows
 * that order line by its quantities. Needs the server side of issue 38 (the giveaway in the
 * gateway, the worker and the simulator): kept apart from the suites that run without it. The
 * simulator's history rows show the order's Ref# here (`historyShowsRef`), the only proof of a
 * giveaway's delivery (docs/fragment-protocol.md §22).
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions, screenshotPath, waitFor } from '@starsgate/platform/testing';
import { startStack, type RunningStack } from './support/running-stack';

jest.setTimeout(300_000);

const CHANNEL = '@news_channel';

interface CatalogEntry {
  product: string;
  title: string;
  recipient_kind: string;
  payment_methods: string[];
  fields: Array<{ name: string; quantity: string; choices?: number[] }>;
}

let stack: RunningStack;
let browser: Browser;
let page: Page;
let catalog: CatalogEntry[];

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  stack = await startStack({ POLL_INTERVAL_MS: '300' });
  catalog = (await json<{ products: CatalogEntry[] }>(`${stack.gatewayUrl}/api/v1/products`)).products;
  await json(`${stack.sandboxUrl}/admin/fragment/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ historyShowsRef: true }),
  });
  browser = await chromium.launch(chromiumLaunchOptions());
  page = await browser.newPage({ viewport: { width: 760, height: 1000 } });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

test('the demo checkout page offers every product of the catalogue, with its own fields', async () => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${stack.sandboxUrl}/demo/checkout?gateway=${stack.gatewayUrl}`);
  await page.locator('#create:not([disabled])').waitFor();
  const options = await page
    .locator('select[name="product"] option')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('value'), node.textContent]));
  expect(options).toEqual(catalog.map((entry) => [entry.product, entry.title]));
  expect(catalog.map((entry) => entry.product)).toContain('premium_giveaway');

  for (const entry of catalog) {
    await page.locator('select[name="product"]').selectOption(entry.product);
    const names = await page
      .locator('#quantity-fields [name]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('name')));
    expect([entry.product, names]).toEqual([entry.product, entry.fields.map((field) => field.name)]);
    const methods = await page
      .locator('select[name="payment_method"] option')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value')));
    expect([entry.product, methods]).toEqual([entry.product, entry.payment_methods]);
    const placeholder = await page.locator('input[name="username"]').getAttribute('placeholder');
    expect([entry.product, placeholder]).toEqual([
      entry.product,
      entry.recipient_kind === 'channel' ? '@channel' : '@username',
    ]);
  }
  expect(problems).toEqual([]);
});

test('a buyer gives Premium to 10 winners of a channel for 3 months and pays with the sandbox wallet', async () => {
  const giveaway = catalog.find((entry) => entry.product === 'premium_giveaway')!;
  await page.goto(`${stack.sandboxUrl}/demo/checkout?gateway=${stack.gatewayUrl}`);
  await page.locator('#create:not([disabled])').waitFor();
  await page.locator('select[name="product"]').selectOption('premium_giveaway');
  await page.locator('input[name="username"]').fill(CHANNEL);
  await page.locator('input[name="winners"]').fill('10');
  expect(giveaway.fields.find((field) => field.name === 'months')?.choices).toEqual([3, 6, 12]);
  await page.locator('select[name="months"]').selectOption('3');
  await page.locator('select[name="payment_method"]').selectOption('gram');
  await page.locator('#create').click();

  const pay = page.locator('[data-action="pay"]:not([disabled])');
  await pay.waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-field="username"]').textContent()).toBe(CHANNEL);
  expect(await page.locator('[data-field="order"]').textContent()).toBe(`${giveaway.title}: 10 winners × 3 months`);
  expect(await page.locator('[data-field="price"]').textContent()).toMatch(/^\d+(\.\d+)? GRAM$/);
  await pay.click();

  const status = page.locator('[data-field="status"]');
  await waitFor(
    async () =>
      ['completed', 'failed', 'expired', 'reconciliation_required'].includes(
        (await status.getAttribute('data-status')) ?? '',
      ),
    { timeoutMs: 120_000, intervalMs: 250, what: 'the giveaway checkout to end' },
  );
  await page.screenshot({ path: screenshotPath('checkout-giveaway'), fullPage: true });
  expect(await status.getAttribute('data-status')).toBe('completed');
  expect(await page.locator('#problem').isHidden()).toBe(true);

  const id = (await page.locator('[data-field="checkout_id"]').textContent())!;
  const checkout = await json<{ product: string; username: string; quantities: Record<string, number> }>(
    `${stack.gatewayUrl}/api/v1/checkouts/${id}`,
  );
  expect(checkout).toMatchObject({
    product: 'premium_giveaway',
    username: CHANNEL,
    quantities: { winners: 10, months: 3 },
  });
});

test('the admin UI shows the giveaway by its order line', async () => {
  await page.goto(`${stack.adminUrl}/admin`);
  await page.getByLabel('Your name').fill('Olga Ops');
  await page.getByLabel('Admin token').fill(stack.adminToken);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('link', { name: 'Orders' }).click();
  await page.getByPlaceholder(/idempotency key/).fill(CHANNEL);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.locator('table.rows tbody tr').first();
  await row.waitFor();
  // Its quantities in the order the API sends them.
  expect(await row.innerText()).toMatch(/premium_giveaway · (10 winners × 3 months|3 months × 10 winners) · gram/);
  await row.click();
  await page.locator('[data-testid=timeline]').waitFor();
  expect(await page.locator('body').innerText()).toMatch(
    /premium_giveaway · (10 winners × 3 months|3 months × 10 winners)/,
  );
});
