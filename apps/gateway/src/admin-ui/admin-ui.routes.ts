import { existsSync } from 'node:fs';
import { Router, type Response } from 'express';
import { AppError } from '@starsgate/domain';
import { ADMIN_UI_PAGE, adminUiAssets } from './admin-ui-assets';

/** The page may load only its own bundle, talk only to its own origin, and never be framed. */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** Without a build (`npm run build -w @starsgate/gateway`) there is no page to serve. */
const sendPage = (res: Response): void => {
  if (!existsSync(ADMIN_UI_PAGE)) throw new AppError('NOT_FOUND');
  res.set(PAGE_HEADERS).sendFile(ADMIN_UI_PAGE);
};

/**
 * `/admin`: the dashboard page (login included: the page asks `/admin/session` and shows the
 * login form when there is none) and its bundle under `/admin/assets/`, both built by `npm run build`. The page holds no data;
 * everything it shows comes from the admin API under the session.
 */
export function adminUiRoutes(): Router {
  const router = Router();
  router.get(['/admin', '/admin/'], (_req, res) => sendPage(res));
  router.get('/admin/assets/:file', (req, res) => {
    const asset = adminUiAssets().get(req.params.file);
    if (!asset) throw new AppError('NOT_FOUND');
    res.set({
      'Content-Type': asset.contentType,
      ETag: asset.etag,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.get('if-none-match') === asset.etag) return void res.status(304).end();
    res.send(asset.body);
  });
  return router;
}
