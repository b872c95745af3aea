/**
 * One source per version: the service's in the root package.json, the SDKs' in
 * packages/sdk/package.json (written by `changeset version`). The TypeScript constants, the
 * OpenAPI info.version, the Python `_version.py` and the SDK READMEs are generated from them
 * (scripts/release/versions.mjs) and must agree.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_VERSION } from '@starsgate/platform/service-version';
import { generatedFiles, sourceVersions, staleFiles, writeGeneratedFiles } from '../../scripts/release/versions';
import { root } from '../deployment/repo-root';

const read = (base: string, file: string) => readFileSync(path.join(base, file), 'utf8');

test('every generated version file agrees with its source', () => {
  expect(staleFiles(root)).toEqual([]);
  const { service, sdk } = sourceVersions(root);
  expect(SERVICE_VERSION).toBe(service);
  expect(read(root, 'packages/sdk/src/core/version.ts')).toContain(`SDK_VERSION = '${sdk}'`);
  expect((JSON.parse(read(root, 'packages/sdk/openapi.json')) as { info: { version: string } }).info.version).toBe(sdk);
  expect(read(root, 'packages/sdk-python/src/starsgate/_version.py')).toContain(`__version__ = "${sdk}"`);
  // No other source file types the SDK version by hand.
  expect(read(root, 'packages/sdk/src/core/http.ts')).not.toContain(`'${sdk}'`);
  expect(read(root, 'apps/gateway/src/openapi/openapi-document.ts')).not.toMatch(/version: '\d+\.\d+\.\d+'/);
});

test('a changesets bump of the SDK (and a service release) is caught until the files are regenerated', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'versions-'));
  try {
    for (const { file } of generatedFiles(root)) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(copy, file));
    }
    for (const manifest of ['package.json', 'packages/sdk/package.json']) {
      const json = JSON.parse(read(root, manifest)) as { version: string };
      mkdirSync(path.dirname(path.join(copy, manifest)), { recursive: true });
      writeFileSync(path.join(copy, manifest), JSON.stringify({ ...json, version: '9.8.7' }, null, 2));
    }
    expect(staleFiles(copy).sort()).toEqual(
      generatedFiles(root)
        .map(({ file }) => file)
        .sort(),
    );
    writeGeneratedFiles(copy);
    expect(staleFiles(copy)).toEqual([]);
    expect(read(copy, 'packages/sdk-python/src/starsgate/_version.py')).toContain('__version__ = "9.8.7"');
    expect(read(copy, 'packages/platform/src/service-version.ts')).toContain("SERVICE_VERSION = '9.8.7'");
    expect(JSON.parse(read(copy, 'packages/sdk/openapi.json'))).toEqual({
      ...JSON.parse(read(root, 'packages/sdk/openapi.json')),
      info: { ...(JSON.parse(read(root, 'packages/sdk/openapi.json')) as { info: object }).info, version: '9.8.7' },
    });
    expect(read(copy, 'packages/sdk/README.md').split('\n')[0]).toBe('# @starsgate/sdk (TypeScript SDK) 9.8.7');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('npm run version-packages regenerates them after changesets', () => {
  const scripts = (JSON.parse(read(root, 'package.json')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['version-packages']).toBe('changeset version && tsx scripts/release/versions.ts');
});
