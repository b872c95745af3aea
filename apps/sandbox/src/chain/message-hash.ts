import { Cell, Dictionary, loadMessage, type Message } from '@ton/core';
import { normalizedExternalHash as tonNormalizedHash } from '@starsgate/ton';

/** An external-in message parsed from a BOC, with its raw and TEP-467 normalized hashes. */
export interface ParsedExternal {
  cell: Cell;
  message: Message & { info: { type: 'external-in' } };
  hash: Buffer;
  hashNorm: Buffer;
}

/** TEP-467 normalized hash (toncenter `hash_norm`), computed by @starsgate/ton so client and sandbox agree by construction. */
export function normalizedExternalHash(message: Message): Buffer {
  return Buffer.from(tonNormalizedHash(message), 'hex');
}

export function parseExternalBoc(boc: Buffer | string): ParsedExternal {
  const bytes = typeof boc === 'string' ? Buffer.from(boc, 'base64') : boc;
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(bytes);
  } catch {
    throw new BocError('failed to deserialize BOC');
  }
  const cell = roots[0];
  if (roots.length !== 1 || !cell) throw new BocError('BOC must have exactly one root cell');
  let message: Message;
  try {
    message = loadMessage(cell.beginParse());
  } catch {
    throw new BocError('BOC root is not a message');
  }
  if (message.info.type !== 'external-in') throw new BocError('message is not an inbound external message');
  return {
    cell,
    message: message as ParsedExternal['message'],
    hash: cell.hash(),
    hashNorm: normalizedExternalHash(message),
  };
}

export class BocError extends Error {
  override readonly name = 'BocError';
}

/**
 * Exact message cells of a raw transaction (the hashes toncenter reports are hashes of these
 * cells, which can differ from a re-serialization of the parsed message).
 */
export function transactionMessageCells(raw: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const s = raw.beginParse();
  s.skip(4 + 256 + 64 + 256 + 64 + 32 + 15 + 2 + 2);
  const msgs = s.loadRef().beginParse();
  const inMsg = msgs.loadBit() ? msgs.loadRef() : null;
  const dict = msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  const outMsgs = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k) as Cell);
  return { inMsg, outMsgs };
}
