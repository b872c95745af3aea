/**
 * A real V5R1 wallet for the integration tests: builds the TonConnect `account` and signs the
 * returned transaction into an external-in message, using each returned payload cell as is.
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, storeStateInit } from '@ton/core';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import type { LocalChain } from '../../../../apps/sandbox/src';
import type { FragmentTransaction, TonConnectAccount } from '../../src';

export class TestWallet {
  readonly keys: KeyPair;
  readonly wallet: WalletContractV5R1;

  constructor(label: string) {
    this.keys = keyPairFromSeed(createHash('sha256').update(`fragment-client-test:${label}`).digest());
    this.wallet = WalletContractV5R1.create({ workchain: 0, publicKey: this.keys.publicKey });
  }

  get address(): Address {
    return this.wallet.address;
  }

  account(): TonConnectAccount {
    const stateInit = beginCell().store(storeStateInit(this.wallet.init)).endCell();
    return {
      address: this.address.toRawString(),
      chain: '-239',
      walletStateInit: stateInit.toBoc().toString('base64'),
      publicKey: this.keys.publicKey.toString('hex'),
    };
  }

  async seqno(chain: LocalChain): Promise<number> {
    const res = await chain.runGetMethod(this.address, 'seqno');
    const item = res.stack[0];
    return res.exitCode === 0 && item?.type === 'int' ? Number(item.value) : 0;
  }

  /** External-in message BOC (base64) paying exactly the returned messages. */
  async sign(chain: LocalChain, tx: FragmentTransaction): Promise<string> {
    const seqno = await this.seqno(chain);
    const messages = tx.messages.map((m) =>
      internal({
        to: Address.parse(m.address),
        value: BigInt(m.amount),
        bounce: false,
        body: m.payload === undefined ? undefined : Cell.fromBoc(Buffer.from(m.payload, 'base64url'))[0]!,
      }),
    );
    const body = this.wallet.createTransfer({
      seqno,
      secretKey: this.keys.secretKey,
      messages,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: tx.validUntil,
    });
    const ext = external({ to: this.address, init: seqno === 0 ? this.wallet.init : undefined, body });
    return beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64');
  }
}
