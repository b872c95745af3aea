export * from './common.schema';
export * from './error-body.schema';
export * from './purchase.schema';
