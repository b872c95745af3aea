import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import express from 'express';

/**
 * The demo shop page's sources (browser TypeScript, HTML template, CSS): apps/sandbox/web/checkout,
 * two levels up from src/demo/ and one from a built dist/.
 */
const PAGE_DIR =
  [path.resolve(__dirname, '../../web/checkout'), path.resolve(__dirname, '../web/checkout')].find((dir) =>
    existsSync(path.join(dir, 'index.html')),
  ) ?? path.resolve(__dirname, '../../web/checkout');

let bundle: Promise<string> | undefined;

/**
 * The page's script: its TypeScript modules with @ton/ton and the `buffer` polyfill, bundled for
 * the browser by esbuild once per process, on first request.
 */
function pageBundle(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.join(PAGE_DIR, 'main.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  bundle.catch(() => (bundle = undefined));
  return bundle;
}

/**
 * `GET /demo/checkout`: a small shop page that buys through the gateway's client-signed checkout
 * and pays with an in-page sandbox wallet. The gateway's URL comes from `?gateway=` (default
 * http://localhost:8080); the gateway must allow this origin (CORS_ALLOWED_ORIGINS).
 */
export function createCheckoutPageRouter(): express.Router {
  const router = express.Router();
  router.get('/', (_req, res) => res.sendFile(path.join(PAGE_DIR, 'index.html')));
  router.get('/styles.css', (_req, res) => res.sendFile(path.join(PAGE_DIR, 'styles.css')));
  router.get('/app.js', async (_req, res) => {
    try {
      res.type('text/javascript').send(await pageBundle());
    } catch (error) {
      console.error('[sandbox] checkout page bundle failed', error);
      res.status(500).type('text/plain').send('the page bundle could not be built');
    }
  });
  return router;
}
