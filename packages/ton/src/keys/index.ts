export * from './seed-format';
export * from './ed25519';
export * from './derive-key-pair';
export * from './native-cell-hash';
