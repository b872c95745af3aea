import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './repo-root';

/** `.env.example` as text. */
export const envExample = (): string => readFileSync(path.join(root, '.env.example'), 'utf8');

/** Every variable .env.example documents, set (`NAME=`) or shown commented out (`# NAME=`). */
export function documentedVariables(): Set<string> {
  return new Set([...envExample().matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!));
}

/** The values .env.example sets (uncommented lines), quotes removed. */
export function exampleValues(): Record<string, string> {
  return Object.fromEntries(
    [...envExample().matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((match) => [
      match[1]!,
      match[2]!.replace(/^'(.*)'$/, '$1'),
    ]),
  );
}
