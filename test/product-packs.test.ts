/**
 * Product knowledge lives in the product packs (issue 38): outside a `products/` folder, no source
 * file of the service, its SDKs or its pages names a product (Stars, Premium, the GRAM top-up), so
 * a new product is its packs and the registry's lines, not sixty edits. `GRAM` the currency (a
 * payment method) is not a product and is not matched; `starsgate` is the project's name.
 *
 * Outside the scan: tests, docs, generated files (OpenAPI types, migrations) and the test harnesses
 * under tools/ (bench, chaos, soak, fuzz), which buy named products on purpose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

const SOURCE_ROOTS = [
  'apps/cli/src',
  'apps/gateway/src',
  'apps/gateway/admin-ui/src',
  'apps/sandbox/src',
  'apps/sandbox/web',
  'apps/worker/src',
  'packages',
  'tools/stack/src',
  'scripts',
];
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.py', '.html', '.vue', '.svelte'];
/** Folders that are packs, tests or generated: a path with one of these segments is not scanned. */
const EXEMPT_SEGMENTS = new Set([
  'products',
  'generated',
  'test',
  'tests',
  'testing',
  'migrations',
  'node_modules',
  'dist',
  '.venv',
  '__pycache__',
]);

const PRODUCT_NAMES: ReadonlyArray<{ product: string; pattern: RegExp }> = [
  { product: 'premium', pattern: /premium/i },
  { product: 'stars', pattern: /stars(?!gate)/i },
  { product: 'gram (the top-up)', pattern: /gram[ _-]?top-?up|top-?up product|product\W{0,12}gram\b/i },
];

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && SOURCE_EXTENSIONS.includes(path.extname(entry.name)))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((segment) => EXEMPT_SEGMENTS.has(segment)))
    .filter((file) => !/\.(test|spec)\.[a-z]+$|(^|\/)(test_[^/]*\.py|testing\.ts)$|\.d\.ts$/.test(file));
}

const files = [...new Set(SOURCE_ROOTS.flatMap(sourceFiles))].sort();

describe('product knowledge lives in the product packs', () => {
  it('scans the service, SDK and page sources', () => {
    expect(files).toEqual(expect.arrayContaining(['apps/worker/src/purchases/steps/preparing.ts']));
    expect(files.some((file) => file.startsWith('packages/sdk-python/src/'))).toBe(true);
    expect(files.some((file) => file.includes('/products/'))).toBe(false);
  });

  it.each(PRODUCT_NAMES)('no file outside a products/ folder names $product', ({ pattern }) => {
    const hits = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 120)}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
