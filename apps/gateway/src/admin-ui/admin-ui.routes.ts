import path from 'node:path';
import { Router, type Response } from 'express';
import { AppError } from '@starsgate/domain';
import { ADMIN_UI_DIR, adminUiBundle } from './admin-ui-bundle';

/** The page may load only its own bundle, talk only to its own origin, and never be framed. */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const sendPage = (res: Response): void => {
  res.set(PAGE_HEADERS).sendFile(path.join(ADMIN_UI_DIR, 'index.html'));
};

/**
 * `/admin`: the dashboard page (login included: the page asks `/admin/session` and shows the
 * login form when there is none) and its bundle under `/admin/assets/`. The page holds no data;
 * everything it shows comes from the admin API under the session.
 */
export function adminUiRoutes(): Router {
  const router = Router();
  router.get(['/admin', '/admin/'], (_req, res) => sendPage(res));
  router.get('/admin/assets/:file', async (req, res) => {
    const asset = (await adminUiBundle()).get(req.params.file);
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
