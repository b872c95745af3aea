import { internal, SendMode } from '@ton/core';
import type { WalletContractV5R1 } from '@ton/ton';
import { cellSigner } from '@starsgate/ton';
import type { LocalChain } from '../chain/local-chain';
import { deployWithFirstExternal } from './demo-wallets';

/**
 * Fragment's real receiving wallets are active accounts (an operator's check reads them so). The
 * simulator's seed-derived ones are funded and deployed the same way once (a restart from a data
 * directory finds them active); so is the wallet linked to the demo Fragment account, with some
 * GRAM and USDT as a real one would hold.
 */
export async function activateFragmentReceivers(
  chain: LocalChain,
  wallets: ReadonlyArray<{ contract: WalletContractV5R1; secretKey: Buffer }>,
  funding: { gram: bigint; usdt?: bigint } = { gram: 1_000_000_000n },
): Promise<void> {
  const pending: Array<{ contract: WalletContractV5R1; secretKey: Buffer }> = [];
  for (const wallet of wallets)
    if ((await chain.getAccount(wallet.contract.address)).status !== 'active') pending.push(wallet);
  await Promise.all(pending.map(({ contract }) => chain.fund(contract.address, funding)));
  for (const { contract, secretKey } of pending) {
    const body = await contract.createTransfer({
      seqno: 0,
      signer: cellSigner(secretKey),
      messages: [internal({ to: contract.address, value: 1n, bounce: false, body: 'deploy' })],
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    });
    await deployWithFirstExternal(chain, contract, body);
  }
}
