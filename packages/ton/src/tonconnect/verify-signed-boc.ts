import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  loadMessage,
  loadMessageRelaxed,
  loadOutList,
  storeStateInit,
  type Message,
  type MessageRelaxed,
  type Slice,
} from '@ton/core';
import { AppError, type ErrorCode } from '@starsgate/domain';
import { verifyEd25519 } from '../keys/ed25519';
import { NETWORK_GLOBAL_ID, type Network } from '../network';
import type { ChainClient } from '../chain/chain-client';
import { normalizedExternalHash } from '../transfers/normalized-hash';
import {
  DEFAULT_V3_V4_WALLET_ID,
  v5r1WalletId,
  walletVersionByCode,
  walletVersionByCodeHash,
  type WalletVersion,
} from '../wallets/wallet-contracts';
import type { SendTransactionRequest } from './send-transaction-request';

const V5R1_AUTH_SIGNED_EXTERNAL = 0x7369676e;
const MAX_BOC_BYTES = 64 * 1024;
/** Mode every checkout message must carry: pay fees separately + ignore errors (+2 is also V5R1's requirement). */
const CHECKOUT_SEND_MODE = 3;

export interface VerifiedCheckoutBoc {
  normalizedHash: string;
  walletVersion: WalletVersion;
  publicKey: Buffer;
  seqno: number;
  validUntil: number;
  /** True when the BOC deploys the wallet (carries its StateInit). */
  deploys: boolean;
}

export interface VerifySignedBocDeps {
  network: Network;
  chain: Pick<ChainClient, 'getAccountState'>;
  /** Unix seconds; default now. */
  now?: number;
  /**
   * Asked only when the seqno differs from the wallet's: whether the message with this normalized
   * hash already executed (the wallet broadcast it itself). Then its seqno was the wallet's when it
   * ran, and the other checks still apply.
   */
  isLanded?: (normalizedHash: string) => Promise<boolean>;
}

function reject(code: ErrorCode, message: string): AppError {
  return AppError.field(code, 'boc', message);
}

export interface WalletData {
  version: WalletVersion;
  seqno: number;
  walletId: number;
  publicKey: Buffer;
}

/** Seqno, wallet id and public key from a standard wallet's data cell. */
export function parseWalletData(version: WalletVersion, data: Cell): WalletData {
  const s = data.beginParse();
  if (version === 'V5R1') {
    s.loadBit(); // is_signature_allowed
    const seqno = s.loadUint(32);
    const walletId = s.loadUint(32);
    return { version, seqno, walletId, publicKey: s.loadBuffer(32) };
  }
  const seqno = s.loadUint(32);
  const walletId = s.loadUint(32);
  return { version, seqno, walletId, publicKey: s.loadBuffer(32) };
}

/** Signed cell and signature of a wallet external body, per version. */
export function splitSignature(version: WalletVersion, body: Cell): { signed: Cell; signature: Buffer } {
  const s = body.beginParse();
  const refs: Cell[] = [];
  for (let i = 0; i < body.refs.length; i += 1) refs.push(body.refs[i] as Cell);
  if (version === 'V5R1') {
    const bits = body.bits.length;
    if (bits < 512 + 32) throw new Error('body too short');
    const signed = beginCell().storeBits(s.loadBits(bits - 512));
    const signature = s.loadBuffer(64);
    for (const ref of refs) signed.storeRef(ref);
    return { signed: signed.endCell(), signature };
  }
  const signature = s.loadBuffer(64);
  const signed = beginCell().storeBits(s.loadBits(s.remainingBits));
  for (const ref of refs) signed.storeRef(ref);
  return { signed: signed.endCell(), signature };
}

export interface SignedPayload {
  walletId: number;
  validUntil: number;
  seqno: number;
  actions: Array<{ mode: number; message: MessageRelaxed }>;
}

export function parseSignedPayload(version: WalletVersion, signed: Cell): SignedPayload {
  const s: Slice = signed.beginParse();
  if (version === 'V5R1') {
    if (s.loadUint(32) !== V5R1_AUTH_SIGNED_EXTERNAL)
      throw reject('CHECKOUT_BOC_INVALID', 'The V5R1 body is not a signed external request.');
  }
  const walletId = s.loadUint(32);
  const validUntil = s.loadUint(32);
  const seqno = s.loadUint(32);
  const actions: SignedPayload['actions'] = [];
  if (version === 'V5R1') {
    const outList = s.loadMaybeRef();
    for (const action of outList ? loadOutList(outList.beginParse()) : []) {
      if (action.type !== 'sendMsg')
        throw reject('CHECKOUT_MESSAGE_MISMATCH', `The request contains a ${action.type} action.`);
      actions.push({ mode: action.mode, message: action.outMsg });
    }
    if (s.loadBit() || s.remainingRefs > 0)
      throw reject('CHECKOUT_MESSAGE_MISMATCH', 'The request contains extended wallet actions.');
  } else {
    if (version === 'V4R2' && s.loadUint(8) !== 0)
      throw reject('CHECKOUT_MESSAGE_MISMATCH', 'The V4R2 request is not a simple send (op 0).');
    while (s.remainingRefs > 0) {
      const mode = s.loadUint(8);
      actions.push({ mode, message: loadMessageRelaxed(s.loadRef().beginParse()) });
    }
  }
  if (s.remainingBits > 0) throw reject('CHECKOUT_BOC_INVALID', 'The signed request has trailing data.');
  return { walletId, validUntil, seqno, actions };
}

export function expectedWalletId(version: WalletVersion, network: Network): number {
  return version === 'V5R1' ? v5r1WalletId(network) : DEFAULT_V3_V4_WALLET_ID;
}

function parseBoc(boc: string): Message {
  if (typeof boc !== 'string' || boc.length === 0 || boc.length > (MAX_BOC_BYTES * 4) / 3 + 4) {
    throw reject('CHECKOUT_BOC_INVALID', 'The BOC is missing or too large.');
  }
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(Buffer.from(boc, 'base64'));
  } catch {
    throw reject('CHECKOUT_BOC_INVALID', 'The BOC does not decode.');
  }
  if (roots.length !== 1) throw reject('CHECKOUT_BOC_INVALID', 'The BOC must have exactly one root cell.');
  try {
    return loadMessage((roots[0] as Cell).beginParse());
  } catch {
    throw reject('CHECKOUT_BOC_INVALID', 'The BOC is not a message.');
  }
}

/** The BOC as the one external-in message addressed to the checkout's payer (no chain read). */
export function parsePayerExternal(boc: string, request: SendTransactionRequest, network: Network): Message {
  const message = parseBoc(boc);
  if (message.info.type !== 'external-in')
    throw reject('CHECKOUT_BOC_INVALID', 'The BOC is not an external-in message.');
  const dest = message.info.dest;
  if (dest.workChain !== 0 || !dest.equals(Address.parseRaw(request.from)))
    throw reject('CHECKOUT_WRONG_PAYER', 'The message is addressed to another wallet than the checkout payer.');
  if (request.network !== String(NETWORK_GLOBAL_ID[network]))
    throw new RangeError('request network differs from the verifier network');
  return message;
}

function wrongWalletId(payload: SignedPayload, version: WalletVersion, network: Network): AppError {
  return reject(
    'CHECKOUT_WRONG_WALLET_ID',
    `The wallet id ${payload.walletId} is not the ${network} id of this ${version} wallet.`,
  );
}

/** The signed request of a wallet external, its signature checked against `wallet.publicKey` and its wallet id against the network's. */
export function signedPayloadOf(
  message: Message,
  wallet: Pick<WalletData, 'version' | 'publicKey'>,
  network: Network,
): SignedPayload {
  let signed: Cell;
  let signature: Buffer;
  try {
    ({ signed, signature } = splitSignature(wallet.version, message.body));
  } catch {
    throw reject('CHECKOUT_BOC_INVALID', 'The message body is not a signed wallet request.');
  }
  if (!verifyEd25519(signed.hash(), signature, wallet.publicKey)) {
    throw reject('CHECKOUT_BAD_SIGNATURE', 'The signature does not verify against the payer wallet key.');
  }

  let payload: SignedPayload;
  try {
    payload = parseSignedPayload(wallet.version, signed);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw reject('CHECKOUT_BOC_INVALID', 'The signed request does not parse.');
  }
  if (payload.walletId !== expectedWalletId(wallet.version, network))
    throw wrongWalletId(payload, wallet.version, network);
  return payload;
}

/** The signed request's messages against the checkout's: count, order, address, bounce, amount, payload, StateInit, mode. */
export function checkMessages(payload: SignedPayload, request: SendTransactionRequest): void {
  if (payload.actions.length !== request.messages.length) {
    throw reject(
      'CHECKOUT_MESSAGE_MISMATCH',
      `The message sends ${payload.actions.length} messages; the checkout has ${request.messages.length}.`,
    );
  }
  payload.actions.forEach((action, i) => {
    const want = request.messages[i];
    const got = action.message;
    const mismatch = (what: string): AppError =>
      reject('CHECKOUT_MESSAGE_MISMATCH', `Message ${i + 1}: ${what} differs from the checkout.`);
    if (!want || got.info.type !== 'internal') throw mismatch('type');
    const wanted = Address.parseFriendly(want.address);
    if (!got.info.dest.equals(wanted.address)) throw mismatch('destination');
    if (got.info.bounce !== wanted.isBounceable) throw mismatch('bounce flag');
    if (got.info.value.coins !== BigInt(want.amount)) throw mismatch('amount');
    if (got.info.value.other && got.info.value.other.size > 0) throw mismatch('extra currency');
    const wantBody = want.payload ? Cell.fromBase64(want.payload) : Cell.EMPTY;
    if (!got.body.hash().equals(wantBody.hash())) throw mismatch('payload');
    if (want.stateInit) {
      if (!got.init) throw mismatch('state init');
      const gotHash = beginCell().store(storeStateInit(got.init)).endCell().hash();
      if (!gotHash.equals(Cell.fromBase64(want.stateInit).hash())) throw mismatch('state init');
    } else if (got.init) {
      throw mismatch('state init');
    }
    if (action.mode !== CHECKOUT_SEND_MODE) throw mismatch('send mode');
  });
}

/**
 * Verify the BOC a TON Connect wallet returned for `request` before anything is trusted or stored
 * (docs/ton.md §6.3). Each failed check has its own code (field `boc`):
 * CHECKOUT_BOC_INVALID (not a single external-in, bad StateInit, unsupported wallet),
 * CHECKOUT_WRONG_PAYER (dest ≠ request.from), CHECKOUT_BAD_SIGNATURE, CHECKOUT_WRONG_WALLET_ID
 * (network/subwallet), CHECKOUT_EXPIRED (now ≥ valid_until or valid_until > request.validUntil),
 * CHECKOUT_SEQNO_MISMATCH (≠ on-chain seqno; 0 when deploying), CHECKOUT_MESSAGE_MISMATCH
 * (count, order, address, bounce, amount, payload cell hash, StateInit hash, mode 3).
 * The key comes from the account's on-chain data when active, else from the BOC's StateInit whose
 * hash must equal the address. Chain errors propagate as thrown (typed chain errors).
 */
export async function verifySignedBoc(
  boc: string,
  request: SendTransactionRequest,
  deps: VerifySignedBocDeps,
): Promise<VerifiedCheckoutBoc> {
  const message = parsePayerExternal(boc, request, deps.network);
  const dest = Address.parseRaw(request.from);

  const state = await deps.chain.getAccountState(dest);
  let wallet: WalletData;
  let expectedSeqno: number;
  const init = message.init;
  if (init && (!init.code || !init.data || !contractAddress(0, { code: init.code, data: init.data }).equals(dest))) {
    throw reject('CHECKOUT_BOC_INVALID', 'The StateInit does not hash to the payer address.');
  }
  if (state.status === 'active') {
    const version = state.codeHash ? walletVersionByCodeHash(state.codeHash) : null;
    if (!version || !state.data)
      throw reject('CHECKOUT_BOC_INVALID', 'The payer account is not a supported wallet (V5R1, V4R2, V3R2).');
    wallet = parseWalletData(version, state.data);
    expectedSeqno = wallet.seqno;
  } else {
    if (!init?.code || !init.data)
      throw reject('CHECKOUT_BOC_INVALID', 'The payer wallet is not deployed and the message carries no StateInit.');
    const version = walletVersionByCode(init.code);
    if (!version) throw reject('CHECKOUT_BOC_INVALID', 'The StateInit is not a supported wallet (V5R1, V4R2, V3R2).');
    wallet = parseWalletData(version, init.data);
    expectedSeqno = 0;
  }

  const payload = signedPayloadOf(message, wallet, deps.network);
  if (payload.walletId !== wallet.walletId) throw wrongWalletId(payload, wallet.version, deps.network);
  const now = deps.now ?? Math.floor(Date.now() / 1000);
  if (payload.validUntil <= now) throw reject('CHECKOUT_EXPIRED', 'The signed message has expired.');
  if (payload.validUntil > request.validUntil)
    throw reject('CHECKOUT_EXPIRED', 'The signed message stays valid after the checkout validUntil.');
  if (payload.seqno !== expectedSeqno && !(await deps.isLanded?.(normalizedExternalHash(message)))) {
    throw reject(
      'CHECKOUT_SEQNO_MISMATCH',
      `The message uses seqno ${payload.seqno}; the wallet expects ${expectedSeqno}.`,
    );
  }

  checkMessages(payload, request);

  return {
    normalizedHash: normalizedExternalHash(message),
    walletVersion: wallet.version,
    publicKey: wallet.publicKey,
    seqno: payload.seqno,
    validUntil: payload.validUntil,
    deploys: Boolean(message.init) && state.status !== 'active',
  };
}
