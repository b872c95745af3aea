export * from './error-codes';
export * from './app-error';
export * from './echoed-text';
export * from './purchase-failure';
