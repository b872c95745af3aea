import {
  Address,
  beginCell,
  external,
  internal,
  SendMode,
  storeMessage,
  type Cell,
  type MessageRelaxed,
} from '@ton/core';
import type { WalletContractV5R1 } from '@ton/ton';
import { createWalletContract, deriveKeyPair } from '@starsgate/ton';
import type { DemoWallet } from '../src';

export interface SigningWallet {
  address: Address;
  contract: WalletContractV5R1;
  secretKey: Buffer;
  /** Signed external BOC (base64) carrying `messages` with `seqno`. */
  transfer(seqno: number, messages: MessageRelaxed[], opts?: { withInit?: boolean; timeout?: number }): string;
}

export async function v5r1Wallet(demo: DemoWallet): Promise<SigningWallet> {
  const keys = await deriveKeyPair(demo.seed, demo.format, demo.accountIndex);
  const contract = createWalletContract('V5R1', keys.publicKey, 'mainnet');
  if (!contract.address.equals(Address.parse(demo.address))) throw new Error('demo wallet address mismatch');
  return {
    address: contract.address,
    contract,
    secretKey: keys.secretKey,
    transfer(seqno, messages, opts = {}) {
      const body: Cell = contract.createTransfer({
        seqno,
        secretKey: keys.secretKey,
        messages,
        sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
        ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}),
      });
      const msg = external({ to: contract.address, ...(opts.withInit ? { init: contract.init } : {}), body });
      return beginCell().store(storeMessage(msg)).endCell().toBoc().toString('base64');
    },
  };
}

export const gramTo = (to: Address, value: bigint, comment?: string): MessageRelaxed =>
  internal({ to, value, bounce: false, ...(comment ? { body: comment } : {}) });

export function demo(wallets: DemoWallet[], id: DemoWallet['id']): DemoWallet {
  const w = wallets.find((x) => x.id === id);
  if (!w) throw new Error(`no demo wallet ${id}`);
  return w;
}

export async function getJson(url: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function postJson(
  url: string,
  payload: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function putJson(url: string, payload: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: await res.json() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
