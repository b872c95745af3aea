export { createSandbox, startSandbox, DEFAULT_SANDBOX_SEED } from './server';
export type { Sandbox, SandboxOptions, StartedSandbox } from './server';
export { LocalChain, ExternalRejectedError, ChainClosedError } from './chain/local-chain';
export type {
  LocalChainEvents,
  LocalChainOptions,
  AccountSnapshot,
  AccountStatus,
  GetMethodOutcome,
  FeeEstimate,
} from './chain/local-chain';
export type { ChainFaultConfig, FaultTrigger } from './chain/chain-faults';
export { USDT_DECIMALS, jettonTransferBody } from './chain/usdt-jetton';
export { deriveDemoWallets, demoSeeds, DEMO_NETWORK } from './demo/demo-wallets';
export type { DemoWallet, DemoSeedFormat } from './demo/demo-wallets';
export { parseIndexed } from './chain/transaction-index';
export { SANDBOX_VARIABLES } from './sandbox-config';
