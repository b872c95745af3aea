/**
 * `npm run config:docs`: writes `.env.example` and docs/configuration.md from the declared
 * schemas (process-variables.ts). test/deployment/env-example.test.ts fails when they drift.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatedConfigFiles } from './generated-files';

const root = path.resolve(__dirname, '../..');
for (const [file, text] of Object.entries(generatedConfigFiles())) {
  writeFileSync(path.join(root, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
