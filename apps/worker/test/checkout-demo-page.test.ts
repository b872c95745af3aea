/**
 * The sandbox's /demo/checkout page in headless Chromium: a person's click path through a
 * client-signed checkout (create, see order, price and countdown, pay with the in-page sandbox
 * wallet, follow to completed) against the real gateway, worker and sandbox. Saves a screenshot
 * of the completed page in a temporary folder; `npm run screenshots` sends it to the README's
 * docs/screenshots/checkout.png.
 */
import type { Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions, screenshotPath } from '@starsgate/platform/testing';
import { startCheckoutGateway, type CheckoutGateway } from './support/checkout-gateway';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let gw: CheckoutGateway;
let server: Server;
let browser: Browser;

beforeAll(async () => {
  h = await WorkerHarness.start();
  // The page proves its wallet as a TON Connect wallet does (ton_proof), as production requires.
  gw = startCheckoutGateway(h, {
    CORS_ALLOWED_ORIGINS: h.sandbox.url,
    TON_PROOF_REQUIRED: 'true',
    TON_PROOF_DOMAINS: new URL(h.sandbox.url).hostname,
  });
  server = await new Promise<Server>((resolve) => {
    const listening = gw.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  browser = await chromium.launch(chromiumLaunchOptions());
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await gw?.close();
  await h?.close();
});

test('a buyer creates a checkout, sees order, price and countdown, pays with the sandbox wallet, and it completes', async () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the gateway is not listening');
  const page = await browser.newPage({ viewport: { width: 760, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${h.sandbox.url}/demo/checkout?gateway=http://127.0.0.1:${address.port}`);

  await page.locator('#create:not([disabled])').waitFor();
  const walletText = await page.locator('#wallet-address').textContent();
  expect(walletText).toBe(h.wallet('base64-v5r1').address);
  await page.locator('input[name="username"]').fill('@alice');
  await page.locator('input[name="amount"]').fill('120');
  await page.locator('#create').click();

  const pay = page.locator('[data-action="pay"]:not([disabled])');
  await pay.waitFor({ timeout: 30_000 });
  expect(await page.locator('[data-field="order"]').textContent()).toBe('120 Telegram Stars');
  expect(await page.locator('[data-field="price"]').textContent()).toMatch(/^\d+(\.\d+)? GRAM$/);
  expect(await page.locator('[data-field="countdown"]').textContent()).toMatch(/^\d+:\d\d left$/);
  expect(await page.locator('[data-field="status"]').textContent()).toBe('awaiting_signature');
  await pay.click();

  await page.locator('[data-field="status"][data-status="completed"]').waitFor({ timeout: 60_000 });
  await page.screenshot({ path: screenshotPath('checkout'), fullPage: true });
  expect(problems).toEqual([]);
  expect(await page.locator('#problem').isHidden()).toBe(true);

  const id = (await page.locator('[data-field="checkout_id"]').textContent())!;
  const row = await h.find(id);
  expect(row.status).toBe('completed');
  expect(row.mode).toBe('client_signed');
  expect(h.deliveredCount(row.fragmentRef)).toBe(1);
  expect(h.paymentsByRef(row.walletAddress!).get(row.fragmentRef!)).toBe(1);
});
