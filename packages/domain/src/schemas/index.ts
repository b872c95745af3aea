export * from './availability.schema';
export * from './common.schema';
export * from './error-body.schema';
export * from './prices.schema';
export * from './purchase.schema';
export * from './wallet.schema';
export * from './admin.schema';
