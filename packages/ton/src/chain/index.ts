export * from './chain-client';
