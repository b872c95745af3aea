import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';

/**
 * The demo shop page as `npm run build` leaves it (scripts/build/browser-page.mjs bundles
 * apps/sandbox/web/checkout): `dist/checkout/` holds index.html, styles.css and app.js (its
 * TypeScript modules with @ton/ton and the `buffer` polyfill, bundled for the browser). Found
 * beside the sandbox bundle (dist/main.js, as in the image) or from the sources (src/demo/).
 */
const PAGE_DIR =
  [path.resolve(__dirname, 'checkout'), path.resolve(__dirname, '../../dist/checkout')].find((dir) =>
    existsSync(path.join(dir, 'index.html')),
  ) ?? path.resolve(__dirname, '../../dist/checkout');

/**
 * `GET /demo/checkout`: a small shop page that buys through the gateway's client-signed checkout
 * and pays with an in-page sandbox wallet. The gateway's URL comes from `?gateway=` (default
 * http://localhost:8080); the gateway must allow this origin (CORS_ALLOWED_ORIGINS).
 */
export function createCheckoutPageRouter(): express.Router {
  const router = express.Router();
  const serve = (file: string) => (_req: express.Request, res: express.Response) => {
    const built = path.join(PAGE_DIR, file);
    if (!existsSync(built))
      return void res
        .status(404)
        .type('text/plain')
        .send('the demo page is not built: npm run build -w @starsgate/sandbox');
    res.sendFile(built);
  };
  router.get('/', serve('index.html'));
  router.get('/styles.css', serve('styles.css'));
  router.get('/app.js', serve('app.js'));
  return router;
}
