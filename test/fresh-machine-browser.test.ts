/**
 * A fresh machine without a system Chromium (issue 40 §1): the browser tests still get one, from
 * the @sparticuz/chromium package `npm ci` installs (packaged, not downloaded at install or run
 * time). This drives that packaged browser whatever the machine has, as the browser suites would:
 * a page served here, its script run (numbers in the browser's language), its DOM read back.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { chromiumExecutable, chromiumLaunchOptions, packagedChromiumExecutable } from '@starsgate/platform/testing';

jest.setTimeout(120_000);

let server: Server;
let browser: Browser | undefined;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    // Numbers in the browser's language, as the dashboard's charts (uPlot) format them.
    res.end(
      '<!doctype html><p id="out">waiting</p>' +
        '<script>out.textContent = new Intl.NumberFormat(navigator.language).format(42000)</script>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

test('the Chromium inside @sparticuz/chromium runs a page', async () => {
  const executable = packagedChromiumExecutable();
  expect(executable.startsWith(tmpdir())).toBe(true);
  browser = await chromium.launch({ ...chromiumLaunchOptions(), executablePath: executable });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  expect(await page.locator('#out').innerText()).toBe('42,000');
});

test('a CHROMIUM_PATH that does not exist is named, not replaced by another browser', () => {
  expect(() => chromiumExecutable({ ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' })).toThrow(
    'CHROMIUM_PATH=/nonexistent/chromium does not exist',
  );
});
