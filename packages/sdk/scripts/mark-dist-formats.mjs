// Each build directory says which module format its .js files are, so Node loads both from one package.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
writeFileSync(`${dist}esm/package.json`, JSON.stringify({ type: 'module' }) + '\n');
writeFileSync(`${dist}cjs/package.json`, JSON.stringify({ type: 'commonjs' }) + '\n');
