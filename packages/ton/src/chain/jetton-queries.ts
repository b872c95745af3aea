import { beginCell, type Address } from '@ton/core';
import type { ChainClient } from './chain-client';
import { ChainResponseError } from './chain-errors';

type GetMethodSource = Pick<ChainClient, 'runGetMethod' | 'getAccountState'>;

/** TEP-74 `get_wallet_address(owner)` on the master: the authoritative jetton wallet address. */
export async function queryJettonWalletAddress(
  chain: GetMethodSource,
  master: Address,
  owner: Address,
  provider: string,
): Promise<Address> {
  const res = await chain.runGetMethod(master, 'get_wallet_address', [
    { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
  ]);
  if (res.exitCode !== 0) throw new ChainResponseError(`get_wallet_address exit code ${res.exitCode}`, provider);
  return res.stack.readAddress();
}

/** TEP-74 `get_wallet_data` balance; an undeployed jetton wallet holds nothing. */
export async function queryJettonBalance(
  chain: GetMethodSource,
  jettonWallet: Address,
  provider: string,
): Promise<bigint> {
  const state = await chain.getAccountState(jettonWallet);
  if (state.status !== 'active') return 0n;
  const res = await chain.runGetMethod(jettonWallet, 'get_wallet_data');
  if (res.exitCode !== 0) throw new ChainResponseError(`get_wallet_data exit code ${res.exitCode}`, provider);
  return res.stack.readBigNumber();
}
