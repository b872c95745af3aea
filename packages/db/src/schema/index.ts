export * from './leases';
export * from './purchases';
export * from './signed-externals';
export * from './wallet-secrets';
export * from './webhooks';
export * from './admin-actions';
