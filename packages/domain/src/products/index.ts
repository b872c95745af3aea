export * from './gram';
export * from './order-fields';
export * from './order-payment-method';
export * from './payment-methods';
export * from './premium';
export * from './product-description';
export * from './product-registry';
export * from './stars';
