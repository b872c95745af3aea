export * from './availability/availability-texts';
export * from './errors';
export * from './products/product-rules';
export * from './purchases/checkout-status';
export * from './purchases/purchase-status';
export * from './schemas';
export * from './validation/validator';
export * from './money';
