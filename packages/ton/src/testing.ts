/**
 * `@starsgate/ton/testing`: what a local chain needs beside the service's own code: the compiled
 * TEP-74 jetton the sandbox deploys as its USDT stand-in (sources in apps/sandbox/contracts/jetton),
 * shared with this package's jetton-transfer tests, which run against the real contract; and the
 * key cache's inspection hooks, with which tests prove it holds public keys only.
 */
export { JETTON_MINTER_CODE, JETTON_WALLET_CODE, type CompiledContract } from './tep74-jetton-code';
export { clearKeyCache, keyCacheContents, keyCacheSize } from './keys/key-cache';
