export * from './leases';
export * from './purchases';
export * from './wallet-secrets';
