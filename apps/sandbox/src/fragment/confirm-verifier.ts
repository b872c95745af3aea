import { type Address, Cell, loadMessage, loadMessageRelaxed, type Message, type MessageRelaxed } from '@ton/core';
import { readComment } from './comment-payload';
import { parseJettonTransfer } from './jetton-payload';
import type { Order } from './orders';

export type ConfirmCheck = { ok: true; externalHash: string } | { ok: false; reason: string };

/** Bounds the walk; a full V5R1 external (255 messages: an action node and a message each) fits. */
const MAX_CELLS = 1_024;

/** Internal messages reachable from a wallet's signed body (V5R1 out-list, V4/V3 refs): every ref that parses as one. */
export function findInternalMessages(body: Cell): MessageRelaxed[] {
  const found: MessageRelaxed[] = [];
  const seen = new Set<string>();
  const queue: Cell[] = [...body.refs];
  while (queue.length > 0 && seen.size < MAX_CELLS) {
    const cell = queue.shift()!;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      const msg = loadMessageRelaxed(cell.beginParse());
      if (msg.info.type === 'internal') {
        found.push(msg);
        continue; // its body/init refs are payloads, not further messages
      }
    } catch {
      // not a message: an action-list node or a payload; descend
    }
    queue.push(...cell.refs);
  }
  return found;
}

function decodeBoc(boc: string): Cell | undefined {
  try {
    const cells = Cell.fromBoc(Buffer.from(boc.trim(), 'base64'));
    return cells.length === 1 ? cells[0] : undefined;
  } catch {
    return undefined;
  }
}

/** Why a USDT transfer does not pay the order (undefined = it does). */
function jettonMismatch(msg: MessageRelaxed, order: Order): string | undefined {
  const transfer = parseJettonTransfer(msg.body);
  if (!transfer) return 'not a jetton transfer';
  if (transfer.amount !== order.quote.usdtUnits) return 'wrong jetton amount';
  if (!transfer.destination.equals(order.receiver)) return 'wrong jetton destination';
  if (!transfer.forwardPayload.hash().equals(order.commentCell.hash())) return 'wrong forward payload';
  return undefined;
}

/**
 * Another wallet than `from` paying a `linked`-mode order (docs/fragment-protocol.md §17): GRAM
 * must be the order's very message; USDT the same transfer sent through the signer's own jetton
 * wallet (its query id, response destination and attached GRAM are the signer's business).
 */
function otherPayerMismatch(msg: MessageRelaxed, order: Order, signerJettonWallet: Address): string | undefined {
  if (order.paymentMethod !== 'usdt_ton') return mismatch(msg, order);
  if (msg.info.type !== 'internal') return 'not an internal message';
  if (!msg.info.dest.equals(signerJettonWallet)) return "not sent to the signer's own jetton wallet";
  return jettonMismatch(msg, order);
}

/** Why a wallet message does not match the order's message (undefined = matches). */
function mismatch(msg: MessageRelaxed, order: Order): string | undefined {
  const expected = order.message!;
  if (msg.info.type !== 'internal') return 'not an internal message';
  if (!msg.info.dest.equals(expected.address)) return 'wrong destination';
  if (msg.info.value.coins !== expected.amount) return 'wrong amount';
  if (order.paymentMethod === 'usdt_ton') {
    const why = jettonMismatch(msg, order);
    if (why) return why;
  }
  if (!msg.body.hash().equals(expected.payload.hash())) {
    return readComment(msg.body) !== undefined ? 're-encoded comment (payload hash differs)' : 'wrong payload';
  }
  return undefined;
}

/**
 * The `confirmReq` check (docs/fragment-protocol.md §14.3): `boc` must be the signed
 * external-in message whose internal message matches the order's address,
 * value and payload hash (USDT: jetton amount, destination, forward payload).
 * Strict mode rejects a bare transfer body; lenient mode accepts a body whose
 * hash equals the payload (S1qwy-ts 2.0.0 behaviour). A `linked`-mode order accepts the external
 * of another wallet than `from` paying it (`otherPayerMismatch`).
 */
export async function verifyConfirmBoc(
  boc: string | undefined,
  order: Order,
  strict: boolean,
  jettonWalletOf?: (owner: Address) => Promise<Address>,
): Promise<ConfirmCheck> {
  if (!order.message) return { ok: false, reason: 'no transaction was requested for this order' };
  if (!boc) return { ok: false, reason: 'missing boc' };
  const parsed = parseConfirmBoc(boc);
  if (!parsed) return { ok: false, reason: 'boc does not decode' };
  const { root, external, messages } = parsed;
  if (!external || external.info.type !== 'external-in') {
    if (!strict && root.hash().equals(order.message.payload.hash()))
      return { ok: true, externalHash: root.hash().toString('hex') };
    return {
      ok: false,
      reason: strict ? 'boc is not an external-in message' : 'boc matches neither an external message nor the payload',
    };
  }
  const signer = external.info.dest;
  const otherPayer = !!order.from && !signer.equals(order.from);
  if (otherPayer && !order.anyPayer)
    return { ok: false, reason: 'external message is not addressed to transaction.from' };
  if (messages.length === 0) return { ok: false, reason: 'no internal message in the external message' };
  const signerJettonWallet =
    otherPayer && order.paymentMethod === 'usdt_ton' && jettonWalletOf ? await jettonWalletOf(signer) : undefined;
  if (otherPayer && order.paymentMethod === 'usdt_ton' && !signerJettonWallet)
    return { ok: false, reason: "the signer's jetton wallet is unknown" };
  let reason = 'no matching internal message';
  for (const msg of messages) {
    const why = otherPayer ? otherPayerMismatch(msg, order, signerJettonWallet!) : mismatch(msg, order);
    if (!why) return { ok: true, externalHash: root.hash().toString('hex') };
    reason = why;
  }
  return { ok: false, reason };
}

interface ParsedConfirmBoc {
  root: Cell;
  external: Message | undefined;
  messages: MessageRelaxed[];
}

/** A batch's members confirm the same external one after another: its parse is kept for the next. */
const recentlyParsed = new Map<string, ParsedConfirmBoc | undefined>();
const RECENT_LIMIT = 8;

function parseConfirmBoc(boc: string): ParsedConfirmBoc | undefined {
  if (recentlyParsed.has(boc)) return recentlyParsed.get(boc);
  let parsed: ParsedConfirmBoc | undefined;
  const root = decodeBoc(boc);
  if (root) {
    let external: Message | undefined;
    try {
      external = loadMessage(root.beginParse());
    } catch {
      external = undefined;
    }
    parsed = {
      root,
      external,
      messages: external && external.info.type === 'external-in' ? findInternalMessages(external.body) : [],
    };
  }
  recentlyParsed.set(boc, parsed);
  if (recentlyParsed.size > RECENT_LIMIT) recentlyParsed.delete(recentlyParsed.keys().next().value as string);
  return parsed;
}
