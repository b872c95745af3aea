export * from './database';
export * from './migrate';
export * from './repositories/lease-repository';
export * from './repositories/purchase-repository';
export * from './repositories/purchase-transitions';
export * from './schema';
export { isPurchaseLeaseFree } from './sql/lease-expressions';
export * from './secrets/key-ring';
export * from './secrets/secret-vault';
