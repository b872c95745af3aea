export * from './chain-client';
export * from './chain-errors';
export * from './toncenter-chain-client';
