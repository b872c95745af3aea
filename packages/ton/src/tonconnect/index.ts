export * from './send-transaction-request';
export * from './verify-signed-boc';
export * from './checkout-payer';
