/**
 * Jest's transform for TypeScript: esbuild strips the types. `npm test` type-checks every workspace
 * with tsc before any test runs, so a test only needs the JavaScript. esbuild transforms one file at a
 * time and knows nothing of jest: the sources use no `jest.mock` (whose calls a jest transform hoists
 * above the imports), no decorators and no const enums.
 */
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

const OPTIONS = {
  loader: 'ts',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'external',
  // tsconfig.base.json targets ES2022, where class fields are defined, not assigned.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
};

module.exports = {
  process(sourceText, sourcePath) {
    const { code, map } = transformSync(sourceText, { ...OPTIONS, sourcefile: sourcePath });
    return { code, map };
  },
  getCacheKey(sourceText, sourcePath) {
    return createHash('sha256')
      .update(`${version}\0${JSON.stringify(OPTIONS)}\0${sourcePath}\0`)
      .update(sourceText)
      .digest('hex');
  },
};
