import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generatedConfigFiles } from '../../scripts/config/generated-files';
import { PROCESS_VARIABLES } from '../../scripts/config/process-variables';
import { envExample } from './env-example';
import { root } from './repo-root';

describe('.env.example and docs/configuration.md', () => {
  it.each(Object.entries(generatedConfigFiles()))('%s is what the schemas generate', (file, generated) => {
    const committed = readFileSync(path.join(root, file), 'utf8');
    if (committed !== generated)
      throw new Error(`${file} differs from the declared schemas: run \`npm run config:docs\` and commit the result`);
  });

  it('sets each variable at most once, so a copied .env means one thing', () => {
    const names = [...envExample().matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});

/** Direct reads in the sources a process runs (harnesses, `testing.ts`, are not): `process.env.NAME`, `process.env['NAME']`, `env['NAME']`. */
function directReads(folder: string): Array<{ file: string; name: string }> {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && entry.name !== 'testing.ts')
    .flatMap((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [
        ...readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g),
      ].map((match) => ({ file: path.relative(root, file), name: (match[1] ?? match[2])! }));
    });
}

it('no process reads a variable its schemas do not declare', () => {
  const declared = new Set(Object.values(PROCESS_VARIABLES).flatMap((variables) => Object.keys(variables)));
  const folders = [
    'apps/gateway/src',
    'apps/worker/src',
    'apps/sandbox/src',
    ...['db', 'domain', 'fragment', 'platform', 'ton'].map((name) => `packages/${name}/src`),
  ];
  const undeclared = folders.flatMap(directReads).filter(({ name }) => !declared.has(name));
  expect(undeclared).toEqual([]);
});
