export * from './logger';
export * from './redact-secrets';
export * from './log-context';
