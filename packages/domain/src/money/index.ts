export * from './units';
export * from './human-amount';
