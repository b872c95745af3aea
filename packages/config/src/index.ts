/**
 * Each process declares its environment once as a JSON Schema (`variables.ts`) and reads it with
 * `readEnvironment`; `npm run config:docs` documents the declarations (docs/configuration.md).
 * Its own workspace, depending on ajv alone, so the migrate and sandbox images need nothing more.
 */
export * from './variables';
export * from './read-environment';
export * from './load-env-file';
export { ConfigError, redactUrl } from './config-error';
export * from './database-url';
export * from './comma-list';
