/** The calls a `FragmentClient` makes, one concern per module; client.ts decides which take its locks. */
export * as accountReads from './account-reads';
export * as flowSync from './flow-sync';
export * as priceCalls from './price-calls';
export * as purchaseCalls from './purchase-calls';
