export * from './send-transaction-request';
export * from './verify-signed-boc';
export * from './checkout-payer';
export * from './checkout-payment-scan';
export * from './ton-proof';
export * from './precheck-signed-boc';
