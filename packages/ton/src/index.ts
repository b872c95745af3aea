export * from './network';
export * from './keys';
export * from './wallets';
export * from './chain';
export * from './transfers';
export * from './tonconnect';
