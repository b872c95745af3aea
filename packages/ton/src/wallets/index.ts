export * from './address';
export * from './wallet-contracts';
export * from './resolve-offline';
export * from './resolve-wallet';
export { isResolutionCached } from './offline-resolution-cache';
