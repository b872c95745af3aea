/**
 * A checkout payer's wallet, played as a TON Connect wallet plays it: its own key (never sent to
 * the service), signing exactly the `sendTransaction` request the checkout shows, one at a time
 * (a wallet signs with its current seqno, so the next signature waits for the last to land).
 */
import { createHmac } from 'node:crypto';
import { beginCell, storeStateInit } from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import {
  buildSignedExternal,
  keyPairFromSeed,
  requestMessages,
  type SendTransactionRequest,
  type WalletKeyPair,
} from '@starsgate/ton';
import { sleep } from '@starsgate/stack';
import type { ChainAccess } from './chain-access';
import { deployWallet } from './wallets';

export class PayerWallet {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly id: string,
    private readonly keys: WalletKeyPair,
    readonly contract: WalletContractV5R1 | WalletContractV4,
    readonly deployed: boolean,
    private readonly chain: ChainAccess,
  ) {}

  static async create(
    runSeed: string,
    index: number,
    options: { version: 'V5R1' | 'V4R2'; deploy: boolean },
    chain: ChainAccess,
  ): Promise<PayerWallet> {
    const keys = keyPairFromSeed(createHmac('sha256', runSeed).update(`payer-${index}`).digest());
    const contract =
      options.version === 'V4R2'
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const wallet = new PayerWallet(
      `payer-${index} ${options.version}${options.deploy ? '' : ' new'}`,
      keys,
      contract,
      options.deploy,
      chain,
    );
    await chain.fund(wallet.address, '3000', '3000');
    if (options.deploy) await deployWallet(chain, contract, keys.secretKey);
    return wallet;
  }

  get address(): string {
    return this.contract.address.toString({ bounceable: false, urlSafe: true });
  }

  /** TON Connect's `account.publicKey` and `account.walletStateInit`. */
  get account(): { publicKey: string; walletStateInit: string } {
    return {
      publicKey: this.keys.publicKey.toString('hex'),
      walletStateInit: beginCell().store(storeStateInit(this.contract.init)).endCell().toBoc().toString('base64'),
    };
  }

  /**
   * Runs `pay` with this wallet's signing turn: `sign` signs the request at the wallet's current
   * seqno; the turn ends when the seqno moved (the payment landed) or the request's validUntil passed.
   */
  withTurn<T>(pay: (sign: (request: SendTransactionRequest) => Promise<string>) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      let signedAt: { seqno: number; validUntil: number } | undefined;
      const sign = async (request: SendTransactionRequest): Promise<string> => {
        const { seqno } = await this.chain.walletState(this.address);
        signedAt = { seqno, validUntil: request.validUntil };
        const signed = await buildSignedExternal({
          wallet: this.contract,
          secretKey: this.keys.secretKey,
          seqno,
          validUntil: request.validUntil,
          messages: requestMessages(request),
        });
        return signed.boc;
      };
      const result = await pay(sign);
      if (signedAt) await this.waitPast(signedAt.seqno, signedAt.validUntil);
      return result;
    };
    const turn = this.queue.then(run, run);
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async waitPast(seqno: number, validUntil: number): Promise<void> {
    for (;;) {
      try {
        if ((await this.chain.walletState(this.address)).seqno > seqno) return;
      } catch {
        // toncenter fault: ask again
      }
      if (Date.now() / 1000 > validUntil + 5) return;
      await sleep(500);
    }
  }
}
