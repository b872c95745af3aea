import { Address, beginCell, Cell, external, internal, SendMode, storeMessage } from '@ton/core';
import { keyPairFromSeed, sha256_sync, sign, type KeyPair } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import type { TonConnectTransaction, TonProof } from './gateway-api';

/**
 * The in-page wallet: one of the sandbox's demo wallets (a Base64 key the sandbox publishes at
 * /demo), signing in the browser exactly as a TON Connect wallet signs `sendTransaction`, and
 * broadcasting through the sandbox's toncenter API as a wallet broadcasts by itself.
 */
export class SandboxWallet {
  private constructor(
    private readonly keys: KeyPair,
    readonly contract: WalletContractV5R1,
    private readonly sandboxUrl: string,
  ) {}

  static async load(sandboxUrl: string, walletId = 'base64-v5r1'): Promise<SandboxWallet> {
    const demo = (await (await fetch(`${sandboxUrl}/demo`)).json()) as { wallets: Array<{ id: string; seed: string }> };
    const wallet = demo.wallets.find((candidate) => candidate.id === walletId);
    if (!wallet) throw new Error(`the sandbox has no demo wallet ${walletId}`);
    const keys = keyPairFromSeed(Buffer.from(wallet.seed, 'base64'));
    return new SandboxWallet(keys, WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey }), sandboxUrl);
  }

  get address(): Address {
    return this.contract.address;
  }

  private async seqno(): Promise<number> {
    const response = await fetch(
      `${this.sandboxUrl}/toncenter/api/v2/getWalletInformation?address=${this.address.toString()}`,
    );
    const body = (await response.json()) as { result?: { seqno?: number } };
    return body.result?.seqno ?? 0;
  }

  /**
   * TON Connect's `ton_proof` as a wallet answers a connect request carrying `payload` from the page
   * at `domain` (docs/ton.md, "ton_proof"; packages/ton's tonProofSignedBytes is the server's copy,
   * which needs node:crypto).
   */
  tonProof(payload: string, domain: string): TonProof {
    const timestamp = Math.floor(Date.now() / 1000);
    const domainBytes = Buffer.from(domain, 'utf8');
    const header = Buffer.alloc(8);
    header.writeInt32BE(this.address.workChain, 0);
    header.writeUInt32LE(domainBytes.length, 4);
    const time = Buffer.alloc(8);
    time.writeBigUInt64LE(BigInt(timestamp));
    const message = Buffer.concat([
      Buffer.from('ton-proof-item-v2/'),
      header.subarray(0, 4),
      this.address.hash,
      header.subarray(4),
      domainBytes,
      time,
      Buffer.from(payload, 'utf8'),
    ]);
    const signed = sha256_sync(
      Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from('ton-connect'), sha256_sync(message)]),
    );
    return {
      timestamp,
      domain: { lengthBytes: domainBytes.length, value: domain },
      payload,
      signature: sign(signed, this.keys.secretKey).toString('base64'),
    };
  }

  /** Signs the request's messages as given (address bounce flag, amount, payload), valid until its validUntil. */
  async sign(transaction: TonConnectTransaction): Promise<string> {
    if (!Address.parseRaw(transaction.from).equals(this.address)) throw new Error('the checkout is for another wallet');
    const seqno = await this.seqno();
    const messages = transaction.messages.map((message) => {
      const to = Address.parseFriendly(message.address);
      return internal({
        to: to.address,
        bounce: to.isBounceable,
        value: BigInt(message.amount),
        body: message.payload ? Cell.fromBase64(message.payload) : Cell.EMPTY,
      });
    });
    const body = this.contract.createTransfer({
      seqno,
      secretKey: this.keys.secretKey,
      messages,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: transaction.validUntil,
    });
    const message = external({ to: this.address, init: seqno === 0 ? this.contract.init : undefined, body });
    return beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
  }

  async broadcast(boc: string): Promise<void> {
    await fetch(`${this.sandboxUrl}/toncenter/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ boc }),
    });
  }
}
