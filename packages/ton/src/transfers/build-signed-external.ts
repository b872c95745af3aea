import {
  beginCell,
  external,
  internal,
  SendMode,
  storeMessage,
  type Address,
  type Cell,
  type StateInit,
} from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '../wallets/wallet-classes';
import { cellSigner } from '../keys/ed25519';
import { MAX_MESSAGES, walletVersionOf } from '../wallets/wallet-contracts';
import { normalizedExternalHash } from './normalized-hash';

export interface OutgoingMessage {
  to: Address;
  /** nanoGRAM */
  value: bigint;
  /** Always explicit: @ton/core's `internal()` would default to true even for UQ… addresses. */
  bounce: boolean;
  body?: Cell;
  init?: StateInit;
}

export interface SignedExternal {
  /** Base64 BOC of the external-in message, exactly the bytes to broadcast (and rebroadcast). */
  boc: string;
  /** TEP-467 normalized hash, hex. */
  normalizedHash: string;
  seqno: number;
  validUntil: number;
}

/** Payments use mode 3 (pay fees separately + ignore errors); @ton/ton keeps +2 on V5R1 anyway. */
export const PAYMENT_SEND_MODE = SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS;

/**
 * Build and sign one external-in message for `wallet` carrying `messages` (V5R1 ≤255, V4R2/V3R2
 * ≤4), mode 3, with the wallet's StateInit when `seqno === 0`. Returns everything the worker must
 * persist before broadcasting. Does not wipe `secretKey` (the caller owns it). Signs with
 * node:crypto through @ton/ton's `signer` hook, which is why it returns a promise.
 */
export async function buildSignedExternal(args: {
  wallet: WalletContractV5R1 | WalletContractV4 | WalletContractV3R2;
  secretKey: Buffer;
  seqno: number;
  validUntil: number;
  messages: OutgoingMessage[];
}): Promise<SignedExternal> {
  const { wallet, secretKey, seqno, validUntil, messages } = args;
  const version = walletVersionOf(wallet);
  if (!Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) throw new RangeError('seqno must be a uint32');
  if (!Number.isInteger(validUntil) || validUntil <= 0 || validUntil > 0xffffffff)
    throw new RangeError('validUntil must be a unix time in seconds');
  if (messages.length === 0) throw new RangeError('at least one message is required');
  if (messages.length > MAX_MESSAGES[version])
    throw new RangeError(`${version} carries at most ${MAX_MESSAGES[version]} messages per external`);
  if (secretKey.length !== 64) throw new RangeError('secretKey must be 64 bytes (seed ‖ public key)');
  if (!secretKey.subarray(32).equals(wallet.publicKey))
    throw new RangeError('secretKey does not belong to this wallet');

  const relaxed = messages.map((m) => {
    if (typeof m.value !== 'bigint' || m.value < 0n)
      throw new RangeError('message value must be a non-negative bigint (nanoGRAM)');
    if (typeof m.bounce !== 'boolean') throw new RangeError('message bounce must be explicit');
    return internal({ to: m.to, value: m.value, bounce: m.bounce, body: m.body, init: m.init });
  });

  const signer = cellSigner(secretKey);
  let body: Cell;
  if (wallet instanceof WalletContractV5R1) {
    body = await wallet.createTransfer({
      seqno,
      signer,
      messages: relaxed,
      sendMode: PAYMENT_SEND_MODE,
      timeout: validUntil,
    });
  } else {
    body = await wallet.createTransfer({
      seqno,
      signer,
      messages: relaxed,
      sendMode: PAYMENT_SEND_MODE,
      timeout: validUntil,
    });
  }
  const message = external({ to: wallet.address, init: seqno === 0 ? wallet.init : undefined, body });
  const cell = beginCell().store(storeMessage(message)).endCell();
  return { boc: cell.toBoc().toString('base64'), normalizedHash: normalizedExternalHash(message), seqno, validUntil };
}
