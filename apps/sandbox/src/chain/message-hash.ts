import { beginCell, Cell, Dictionary, loadMessage, type Message } from '@ton/core';

/** An external-in message parsed from a BOC, with its raw and TEP-467 normalized hashes. */
export interface ParsedExternal {
  cell: Cell;
  message: Message & { info: { type: 'external-in' } };
  hash: Buffer;
  hashNorm: Buffer;
}

/**
 * TEP-467 normalized hash: the external-in re-serialized with src = addr_none, import_fee = 0,
 * no init, body always as a reference. Relays that repack the message do not change it.
 */
export function normalizedExternalHash(message: Message): Buffer {
  if (message.info.type !== 'external-in') throw new Error('not an external-in message');
  return beginCell()
    .storeUint(0b10, 2)
    .storeUint(0, 2)
    .storeAddress(message.info.dest)
    .storeCoins(0)
    .storeBit(false)
    .storeBit(true)
    .storeRef(message.body)
    .endCell()
    .hash();
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
