/**
 * A real V5R1 wallet for the integration tests: builds the TonConnect `account` and signs the
 * returned transaction into an external-in message, using each returned payload cell as is.
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, storeStateInit } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { buildSignedExternal, keyPairFromSeed, type WalletKeyPair } from '@starsgate/ton';
import type { LocalChain } from '@starsgate/sandbox';
import type { FragmentTransaction, TonConnectAccount } from '../../src';

export class TestWallet {
  readonly keys: WalletKeyPair;
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

  /** External-in message BOC (base64) paying exactly the returned messages, signed as the worker does. */
  async sign(chain: LocalChain, tx: FragmentTransaction): Promise<string> {
    const signed = await buildSignedExternal({
      wallet: this.wallet,
      secretKey: this.keys.secretKey,
      seqno: await this.seqno(chain),
      validUntil: tx.validUntil,
      messages: tx.messages.map((m) => ({
        to: Address.parse(m.address),
        value: BigInt(m.amount),
        bounce: false,
        ...(m.payload === undefined ? {} : { body: Cell.fromBoc(Buffer.from(m.payload, 'base64url'))[0]! }),
      })),
    });
    return signed.boc;
  }
}
