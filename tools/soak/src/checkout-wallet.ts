/**
 * A buyer's wallet for client-signed checkouts, played as a TON Connect wallet plays it: its own
 * key, funded from the sandbox's faucet and deployed on the local chain, signing exactly the
 * `sendTransaction` request the checkout returns (the same way apps/worker's checkout tests sign).
 */
import { randomBytes } from 'node:crypto';
import { comment, type Address } from '@ton/core';
import {
  buildSignedExternal,
  createWalletContract,
  keyPairFromSeed,
  requestMessages,
  type OutgoingMessage,
  type SendTransactionRequest,
  type ToncenterChainClient,
  type WalletKeyPair,
} from '@starsgate/ton';
import type { Faucet } from './faucet';

export type CheckoutWalletVersion = 'V5R1' | 'V4R2';

export class CheckoutWallet {
  /** A checkout of this wallet is under way: one at a time, as one person pays one order. */
  busy = false;

  private constructor(
    readonly version: CheckoutWalletVersion,
    private readonly keys: WalletKeyPair,
    private readonly chain: ToncenterChainClient,
  ) {}

  static async create(
    version: CheckoutWalletVersion,
    chain: ToncenterChainClient,
    faucet: Faucet,
  ): Promise<CheckoutWallet> {
    const wallet = new CheckoutWallet(version, keyPairFromSeed(randomBytes(32)), chain);
    await faucet.fund(wallet.address, { gram: '10000', usdt: '100000' });
    const deploy = await wallet.signMessages(
      [{ to: wallet.address, value: 1n, bounce: false, body: comment('deploy') }],
      {
        seqno: 0,
        validUntil: Math.floor(Date.now() / 1000) + 60,
      },
    );
    await chain.sendBoc(deploy);
    const deadline = Date.now() + 30_000;
    while ((await chain.getSeqno(wallet.address)) < 1) {
      if (Date.now() > deadline) throw new Error(`checkout wallet ${wallet.address.toString()} was not deployed`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return wallet;
  }

  get address(): Address {
    return createWalletContract(this.version, this.keys.publicKey, 'mainnet').address;
  }

  /** The signed external (base64 BOC) paying `request`, at the wallet's current seqno. */
  async sign(request: SendTransactionRequest): Promise<string> {
    const messages = requestMessages(request);
    const seqno = await this.chain.getSeqno(this.address);
    return this.signMessages(messages, { seqno, validUntil: request.validUntil });
  }

  private async signMessages(
    messages: OutgoingMessage[],
    options: { seqno: number; validUntil: number },
  ): Promise<string> {
    const signed = await buildSignedExternal({
      wallet: createWalletContract(this.version, this.keys.publicKey, 'mainnet'),
      secretKey: this.keys.secretKey,
      seqno: options.seqno,
      validUntil: options.validUntil,
      messages,
    });
    return signed.boc;
  }
}
