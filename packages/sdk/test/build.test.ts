/** The package as published: ESM and CJS builds with declarations, loadable by Node, no runtime dependency. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SDK = path.resolve(__dirname, '..');

describe('@starsgate/sdk build', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: SDK, stdio: 'pipe' });
  }, 120_000);

  it('emits ESM and CJS with declarations', () => {
    for (const file of ['esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts', 'esm/package.json'])
      expect(existsSync(path.join(SDK, 'dist', file))).toBe(true);
  });

  it('require() and import() both load it through the exports map', () => {
    const script = [
      "const cjs = require('@starsgate/sdk');",
      "import('@starsgate/sdk').then((esm) => {",
      '  const ok = typeof cjs.Starsgate === "function" && typeof esm.Starsgate === "function" && esm.VERSION === "1.4.0";',
      '  const sdk = new esm.Starsgate({ baseURL: "http://127.0.0.1:1" });',
      '  process.stdout.write(JSON.stringify({ ok, routes: Object.keys(cjs.ROUTES).length, base: sdk.baseURL }));',
      '});',
    ].join('\n');
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: SDK, encoding: 'utf8' })) as Record<
      string,
      unknown
    >;
    expect(out).toEqual({ ok: true, routes: 9, base: 'http://127.0.0.1:1' });
  });

  it('has no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(path.join(SDK, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
  });
});
