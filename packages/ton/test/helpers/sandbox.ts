import { Blockchain } from '@ton/sandbox';
import { Address, beginCell, Cell, internal, loadMessage, toNano, type Transaction } from '@ton/core';

/** An in-process @ton/sandbox chain with quiet logs. */
export async function quietBlockchain(): Promise<Blockchain> {
  const blockchain = await Blockchain.create();
  blockchain.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
  return blockchain;
}

/** Fund `address` from a treasury with a non-bounceable message (works for undeployed wallets). */
export async function fund(blockchain: Blockchain, address: Address, value: bigint): Promise<void> {
  const treasury = await blockchain.treasury('funder');
  await treasury.send({ to: address, value, bounce: false });
}

/** Broadcast a Base64 BOC and return the transaction of `account` that processed it. */
export async function sendBoc(
  blockchain: Blockchain,
  boc: string,
  account: Address,
): Promise<{ tx: Transaction; all: Transaction[] }> {
  const result = await blockchain.sendMessage(loadMessage(Cell.fromBase64(boc).beginParse()));
  const tx = result.transactions.find(
    (t) =>
      t.inMessage?.info.type === 'external-in' &&
      new Address(0, Buffer.from(t.address.toString(16).padStart(64, '0'), 'hex')).equals(account),
  );
  if (!tx) throw new Error('no transaction for the external');
  return { tx, all: result.transactions };
}

export function addressOfTx(tx: Transaction, workchain = 0): Address {
  return new Address(workchain, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
}

export function comment(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

export { internal, toNano };

import type { Blockchain as SandboxBlockchain } from '@ton/sandbox';
import type { AccountState } from '../../src';

/** getAccountState read straight from the emulator (the only chain read the verifier needs). */
export function sandboxAccountState(blockchain: SandboxBlockchain): {
  getAccountState(address: Address): Promise<AccountState>;
} {
  return {
    async getAccountState(address: Address): Promise<AccountState> {
      const contract = await blockchain.getContract(address);
      const state = contract.accountState;
      if (!state) return { status: 'nonexist', balance: contract.balance };
      if (state.type === 'active') {
        const code = state.state.code ?? undefined;
        return {
          status: 'active',
          balance: contract.balance,
          codeHash: code?.hash().toString('hex'),
          data: state.state.data ?? undefined,
        };
      }
      return { status: state.type === 'uninit' ? 'uninit' : 'frozen', balance: contract.balance };
    },
  };
}
