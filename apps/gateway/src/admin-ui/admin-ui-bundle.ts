import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The dashboard's frontend sources (Preact components, styles, the page): `apps/gateway/admin-ui`,
 * found upwards from this file so that it is the same from `src/` and from a compiled `dist/`.
 */
export const ADMIN_UI_DIR = findUpwards(__dirname, path.join('admin-ui', 'index.html'));

function findUpwards(from: string, relative: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, relative))) return path.join(dir, path.dirname(relative));
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '../../admin-ui');
  }
}

export interface BundledAsset {
  contentType: string;
  body: Buffer;
  etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

let bundling: Promise<Map<string, BundledAsset>> | undefined;

/**
 * The dashboard bundle, built by esbuild in memory the first time it is asked for (≈ 0.3 s) and
 * kept for the life of the process: the gateway serves the page from its own sources, so starting
 * it (npm start, a test, a container) is all the build there is.
 */
export function adminUiBundle(): Promise<Map<string, BundledAsset>> {
  bundling ??= build({
    entryPoints: { app: path.join(ADMIN_UI_DIR, 'src/main.tsx') },
    bundle: true,
    write: false,
    outdir: '/assets',
    format: 'esm',
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
    legalComments: 'none',
  }).then((result) => {
    const assets = new Map<string, BundledAsset>();
    for (const file of result.outputFiles) {
      const body = Buffer.from(file.contents);
      assets.set(path.basename(file.path), {
        contentType: CONTENT_TYPES[path.extname(file.path)] ?? 'application/octet-stream',
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 20)}"`,
      });
    }
    return assets;
  });
  bundling.catch(() => {
    // A failed build is retried by the next request.
    bundling = undefined;
  });
  return bundling;
}
