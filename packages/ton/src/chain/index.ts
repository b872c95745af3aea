export * from './chain-client';
export * from './chain-errors';
export * from './request-pacer';
export * from './toncenter-chain-client';
