import { beginCell, Cell, loadMessage, type Message, storeMessage } from '@ton/core';

function toMessage(message: Message | Cell | string): Message {
  if (typeof message === 'string') return loadMessage(Cell.fromBase64(message).beginParse());
  if (message instanceof Cell) return loadMessage(message.beginParse());
  return message;
}

/**
 * TEP-467 normalized hash (hex) of an external-in message: the message re-serialized with
 * `src = addr_none`, `import_fee = 0`, no `init` and the body as a reference. Stable across relays
 * that repack the message or strip `init`; what toncenter calls `hash_norm`.
 */
export function normalizedExternalHash(message: Message | Cell | string): string {
  const msg = toMessage(message);
  if (msg.info.type !== 'external-in') throw new TypeError('normalized hash is defined for external-in messages only');
  const normalized = beginCell()
    .store(
      storeMessage(
        { info: { type: 'external-in', src: null, dest: msg.info.dest, importFee: 0n }, init: null, body: msg.body },
        { forceRef: true },
      ),
    )
    .endCell();
  return normalized.hash().toString('hex');
}

/** Hex form of a 32-byte hash given as hex or (url-safe) Base64, as providers vary. */
export function hashToHex(hash: string): string {
  const text = hash.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return text.toLowerCase();
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32) throw new TypeError('not a 32-byte hash in hex or Base64');
  return bytes.toString('hex');
}
