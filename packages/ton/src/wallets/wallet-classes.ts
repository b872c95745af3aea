/**
 * The three wallet contracts of @ton/ton, each from its own module: `@ton/ton`'s index also loads
 * TonClient, TonClient4, axios and the rest of the HTTP API, none of which we use, and that costs
 * every process that signs or derives an address about 14 MB of resident memory (measured on
 * Node 24: `require('@ton/ton')` adds 20 MB over `@ton/core`, these three modules 6 MB; issue 37).
 */
export { WalletContractV3R2 } from '@ton/ton/dist/wallets/WalletContractV3R2';
export { WalletContractV4 } from '@ton/ton/dist/wallets/WalletContractV4';
export { WalletContractV5R1 } from '@ton/ton/dist/wallets/WalletContractV5R1';
