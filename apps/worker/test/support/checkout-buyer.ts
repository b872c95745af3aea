/**
 * Plays the buyer's wallet of a checkout with @ton/ton, as a TON Connect wallet would: a fresh key,
 * funded through the sandbox's real chain (optionally deployed), signing exactly the transaction
 * the checkout asks for (or a tampered one) with the wallet contract's own createTransfer (signed by node:crypto, as the service signs).
 */
import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, storeStateInit } from '@ton/core';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import {
  cellSigner,
  keyPairFromSeed,
  signEd25519,
  tonProofSignedBytes,
  type SendTransactionRequest,
  type TonProof,
  type WalletKeyPair,
} from '@starsgate/ton';
import type { WorkerHarness } from './worker-harness';

const GRAM = 1_000_000_000n;
const USDT = 1_000_000n;

export interface SignOptions {
  /** Change the messages before signing (amount, destination, payload …). */
  tamper?: (messages: BuyerMessage[]) => void;
  seqno?: number;
  validUntil?: number;
  /** Sign with another key (a wrong signature for this wallet). */
  secretKey?: Buffer;
  /** Address the external to another wallet (a wrong payer). */
  to?: Address;
  /** Attach this StateInit instead of the wallet's own (seqno 0 only). */
  init?: { code: Cell; data: Cell };
}

export interface BuyerMessage {
  to: Address;
  bounce: boolean;
  value: bigint;
  body: Cell;
  init?: { code: Cell; data: Cell };
}

export class CheckoutBuyer {
  private constructor(
    readonly keys: WalletKeyPair,
    readonly wallet: WalletContractV5R1 | WalletContractV4,
    private readonly h: WorkerHarness,
  ) {}

  /** A new wallet of `version`, funded with GRAM and USDT, deployed unless told otherwise. */
  static async create(
    h: WorkerHarness,
    options: { version?: 'V5R1' | 'V4R2'; deploy?: boolean; gram?: bigint; usdt?: bigint } = {},
  ): Promise<CheckoutBuyer> {
    const keys = keyPairFromSeed(randomBytes(32));
    const wallet =
      options.version === 'V4R2'
        ? WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey })
        : WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const buyer = new CheckoutBuyer(keys, wallet, h);
    await h.sandbox.chain.fund(wallet.address, {
      gram: options.gram ?? 100n * GRAM,
      usdt: options.usdt ?? 1_000n * USDT,
    });
    if (options.deploy !== false) {
      const boc = await buyer.signMessages(
        [internal({ to: wallet.address, value: 1n, bounce: false, body: 'deploy' })],
        {
          seqno: 0,
          validUntil: Math.floor(Date.now() / 1000) + 60,
        },
      );
      await buyer.broadcast(boc);
      await buyer.waitForSeqno(1);
    }
    return buyer;
  }

  get address(): Address {
    return this.wallet.address;
  }

  /** TON Connect's `account.publicKey` and `account.walletStateInit`. */
  get account(): { publicKey: string; walletStateInit: string } {
    return {
      publicKey: this.keys.publicKey.toString('hex'),
      walletStateInit: beginCell().store(storeStateInit(this.wallet.init)).endCell().toBoc().toString('base64'),
    };
  }

  async seqno(): Promise<number> {
    return this.h.chain.getSeqno(this.address);
  }

  /** TON Connect's `ton_proof` as the wallet answers a connect request carrying `payload` from `domain`. */
  tonProof(payload: string, domain: string, options: { timestamp?: number; secretKey?: Buffer } = {}): TonProof {
    const unsigned = {
      timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
      domain: { lengthBytes: Buffer.byteLength(domain), value: domain },
      payload,
    };
    const signature = signEd25519(
      tonProofSignedBytes(this.address, unsigned),
      options.secretKey ?? this.keys.secretKey,
    );
    return { ...unsigned, signature: signature.toString('base64') };
  }

  /** Signs the checkout's `sendTransaction` request as the wallet would (options tamper with it). */
  async sign(request: SendTransactionRequest, options: SignOptions = {}): Promise<string> {
    const messages: BuyerMessage[] = request.messages.map((m) => {
      const parsed = Address.parseFriendly(m.address);
      return {
        to: parsed.address,
        bounce: parsed.isBounceable,
        value: BigInt(m.amount),
        body: m.payload ? Cell.fromBase64(m.payload) : Cell.EMPTY,
      };
    });
    options.tamper?.(messages);
    return this.signMessages(
      messages.map((m) => internal({ to: m.to, value: m.value, bounce: m.bounce, body: m.body, init: m.init })),
      { ...options, validUntil: options.validUntil ?? request.validUntil },
    );
  }

  private async signMessages(
    messages: ReturnType<typeof internal>[],
    options: SignOptions & { validUntil: number },
  ): Promise<string> {
    const seqno = options.seqno ?? (await this.seqno());
    const signer = cellSigner(options.secretKey ?? this.keys.secretKey);
    const sendMode = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;
    const body =
      this.wallet instanceof WalletContractV5R1
        ? await this.wallet.createTransfer({ seqno, signer, messages, sendMode, timeout: options.validUntil })
        : await this.wallet.createTransfer({ seqno, signer, messages, sendMode, timeout: options.validUntil });
    const init = options.init ?? (seqno === 0 ? this.wallet.init : undefined);
    const message = external({ to: options.to ?? this.address, init, body });
    return beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
  }

  /** The wallet broadcasts by itself (TON Connect wallets do). */
  async broadcast(boc: string): Promise<void> {
    await this.h.chain.sendBoc(boc);
  }

  async waitForSeqno(seqno: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.seqno()) < seqno) {
      if (Date.now() > deadline) throw new Error(`wallet ${this.address.toRawString()} never reached seqno ${seqno}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Transactions of this wallet on the local chain (a refused BOC must add none). */
  transactionCount(): number {
    return this.h.sandbox.chain.transactionIndex.list(this.address.toRawString(), { limit: 1_000_000 }).length;
  }
}
