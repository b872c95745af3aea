/**
 * `@starsgate/ton/testing`: what a local chain needs beside the service's own code: the compiled
 * TEP-74 jetton the sandbox deploys as its USDT stand-in (sources in apps/sandbox/contracts/jetton),
 * shared with this package's jetton-transfer tests, which run against the real contract.
 */
export { JETTON_MINTER_CODE, JETTON_WALLET_CODE, type CompiledContract } from './tep74-jetton-code';
