import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { cellSigner, keyPairFromSeed, type WalletKeyPair } from '@starsgate/ton';
import type { LocalChain } from '../../src/chain/local-chain';
import type { Json } from './harness';

/** A real V5R1 wallet on the local chain that signs exactly the messages Fragment returns. */
export class Payer {
  readonly keys: WalletKeyPair;
  readonly wallet: WalletContractV5R1;

  constructor(
    private readonly chain: LocalChain,
    label: string,
  ) {
    this.keys = keyPairFromSeed(createHash('sha256').update(`payer:${label}`).digest());
    this.wallet = WalletContractV5R1.create({ workchain: 0, publicKey: this.keys.publicKey });
  }

  get address(): Address {
    return this.wallet.address;
  }

  /** TonConnect `account` JSON as the browser sends it. */
  account(): string {
    const stateInit = beginCell()
      .storeBit(0)
      .storeBit(0)
      .storeBit(1)
      .storeRef(this.wallet.init.code)
      .storeBit(1)
      .storeRef(this.wallet.init.data)
      .storeBit(0)
      .endCell();
    return JSON.stringify({
      address: this.address.toRawString(),
      chain: '-239',
      walletStateInit: stateInit.toBoc().toString('base64'),
      publicKey: this.keys.publicKey.toString('hex'),
    });
  }

  async seqno(): Promise<number> {
    const res = await this.chain.runGetMethod(this.address, 'seqno');
    const item = res.stack[0];
    return res.exitCode === 0 && item?.type === 'int' ? Number(item.value) : 0;
  }

  /** Signs the TonConnect transaction (optionally tampered) into an external-in BOC (base64). */
  async sign(
    transaction: Json,
    tamper?: (m: { to: Address; value: bigint; bounce: boolean; body: Cell }) => {
      to: Address;
      value: bigint;
      bounce: boolean;
      body: Cell;
    },
  ): Promise<string> {
    const seqno = await this.seqno();
    const messages = (transaction.messages as Json[]).map((m) => {
      const parsed = Address.parseFriendly(m.address as string);
      let msg = {
        to: parsed.address,
        value: BigInt(m.amount as string),
        bounce: parsed.isBounceable,
        body: Cell.fromBoc(Buffer.from(m.payload as string, 'base64'))[0]!,
      };
      if (tamper) msg = tamper(msg);
      return internal(msg);
    });
    const body = await this.wallet.createTransfer({
      seqno,
      signer: cellSigner(this.keys.secretKey),
      messages,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: transaction.validUntil as number,
    });
    const ext = external({ to: this.address, init: seqno === 0 ? this.wallet.init : undefined, body });
    return beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64');
  }
}
