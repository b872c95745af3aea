export * from './leases';
export * from './purchases';
export * from './signed-externals';
export * from './wallet-secrets';
export * from './upstream-format-errors';
export * from './webhooks';
export * from './admin-actions';
export * from './domain-columns';
