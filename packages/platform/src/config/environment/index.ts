export * from './variables';
export * from './read-environment';
export * from './load-env-file';
export { ConfigError, redactUrl } from '../config-error';
export * from './database-url';
export * from '../shared-config';
