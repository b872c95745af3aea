export { LocalChain, ExternalRejectedError, ChainClosedError } from './chain/local-chain';
export type { LocalChainEvents, LocalChainOptions, AccountSnapshot, AccountStatus, GetMethodOutcome, FeeEstimate } from './chain/local-chain';
export type { ChainFaultConfig, FaultTrigger } from './chain/chain-faults';
export { USDT_DECIMALS } from './chain/usdt-jetton';
