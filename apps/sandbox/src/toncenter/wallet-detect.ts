import { Cell } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';

/** Standard wallet contracts recognised by code hash, as toncenter does. */
export type KnownWallet = 'v3r2' | 'v4r2' | 'v5r1';

const ZERO_KEY = Buffer.alloc(32);
const CODE_HASHES: Record<string, KnownWallet> = {
  [WalletContractV3R2.create({ workchain: 0, publicKey: ZERO_KEY }).init.code.hash().toString('hex')]: 'v3r2',
  [WalletContractV4.create({ workchain: 0, publicKey: ZERO_KEY }).init.code.hash().toString('hex')]: 'v4r2',
  [WalletContractV5R1.create({ workchain: 0, publicKey: ZERO_KEY }).init.code.hash().toString('hex')]: 'v5r1',
};

export interface WalletInfo {
  kind: KnownWallet;
  seqno: number;
  walletId: number;
  publicKey: Buffer;
  isSignatureAllowed: boolean;
}

/** v2 getWalletInformation spelling. */
export const V2_WALLET_TYPE: Record<KnownWallet, string> = {
  v3r2: 'wallet v3 r2',
  v4r2: 'wallet v4 r2',
  v5r1: 'wallet v5 r1',
};
/** v3 walletStates spelling (ton-indexer interface names). */
export const V3_WALLET_TYPE: Record<KnownWallet, string> = {
  v3r2: 'wallet_v3r2',
  v4r2: 'wallet_v4r2',
  v5r1: 'wallet_v5r1',
};

export function detectWallet(code: Cell | null, data: Cell | null): WalletInfo | null {
  if (!code || !data) return null;
  const kind = CODE_HASHES[code.hash().toString('hex')];
  if (!kind) return null;
  try {
    const s = data.beginParse();
    if (kind === 'v5r1') {
      const isSignatureAllowed = s.loadBit();
      const seqno = s.loadUint(32);
      const walletId = s.loadInt(32);
      const publicKey = s.loadBuffer(32);
      return { kind, seqno, walletId, publicKey, isSignatureAllowed };
    }
    const seqno = s.loadUint(32);
    const walletId = s.loadUint(32);
    const publicKey = s.loadBuffer(32);
    return { kind, seqno, walletId, publicKey, isSignatureAllowed: true };
  } catch {
    return null;
  }
}
