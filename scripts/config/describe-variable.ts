import type { EnvironmentVariable } from '@starsgate/config';
import type { CatalogEntry } from './process-variables';

/** "integer from 1 to 500", "one of strict, chain", "true or false", "a postgres: URL", "text". */
export function typeText(variable: EnvironmentVariable): string {
  if (variable.type === 'integer') return `integer from ${variable.minimum} to ${variable.maximum}`;
  if (variable.type === 'boolean') return 'true or false';
  if (variable.enum) return `one of ${variable.enum.join(', ')}`;
  return variable.patternHint ?? 'text';
}

/** The type, per process when their declarations differ. */
export function entryTypeText(entry: CatalogEntry): string {
  const texts = entry.declarations.map(({ variable }) => typeText(variable));
  if (texts.every((text) => text === texts[0])) return texts[0]!;
  return entry.declarations.map(({ reader }, index) => `${reader} ${texts[index]}`).join(', ');
}

const fixedDefault = (variable: EnvironmentVariable): string | undefined =>
  variable.default === undefined ? undefined : String(variable.default);

/** The default as a reader would say it, per process when they differ; undefined when there is none. */
export function defaultText(entry: CatalogEntry): string | undefined {
  const texts = entry.declarations.map(({ variable }) => variable.defaultText ?? fixedDefault(variable));
  if (texts.every((text) => text === texts[0])) return texts[0];
  return entry.declarations
    .map(({ reader }, index) => `${reader} ${texts[index] ?? 'none'}`)
    .filter((text, index, all) => all.indexOf(text) === index)
    .join(', ');
}

/** One fixed default every reader shares, or undefined. */
export function sharedDefault(entry: CatalogEntry): string | undefined {
  const defaults = entry.declarations.map(({ variable }) => fixedDefault(variable));
  return defaults.every((value) => value === defaults[0]) ? defaults[0] : undefined;
}
