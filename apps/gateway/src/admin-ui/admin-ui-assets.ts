import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The dashboard as `npm run build` leaves it (scripts/build/browser-page.mjs): `dist/admin-ui/`
 * holds index.html and the bundled app.js and app.css. Found beside the gateway bundle
 * (dist/main.js, as in the image) or from the sources (src/admin-ui/, under tsx and jest).
 */
export const ADMIN_UI_DIR =
  [path.resolve(__dirname, 'admin-ui'), path.resolve(__dirname, '../../dist/admin-ui')].find((dir) =>
    existsSync(path.join(dir, 'index.html')),
  ) ?? path.resolve(__dirname, '../../dist/admin-ui');

export const ADMIN_UI_PAGE = path.join(ADMIN_UI_DIR, 'index.html');

export interface BuiltAsset {
  contentType: string;
  body: Buffer;
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let assets: Map<string, BuiltAsset> | undefined;

/**
 * The built scripts and styles by file name, read once and kept for the life of the process (they
 * change only with a new build, which is a new process). Empty when the dashboard was not built.
 */
export function adminUiAssets(): Map<string, BuiltAsset> {
  if (assets) return assets;
  const found = new Map<string, BuiltAsset>();
  const files = existsSync(ADMIN_UI_DIR) ? readdirSync(ADMIN_UI_DIR) : [];
  for (const file of files) {
    const contentType = CONTENT_TYPES[path.extname(file)];
    if (!contentType) continue;
    const body = readFileSync(path.join(ADMIN_UI_DIR, file));
    found.set(file, {
      contentType,
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 20)}"`,
    });
  }
  if (found.size > 0) assets = found;
  return found;
}
