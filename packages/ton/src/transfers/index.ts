export * from './normalized-hash';
export * from './jetton-transfer-body';
export * from './build-signed-external';
export * from './judge-outcome';
export * from './payment-proof';
