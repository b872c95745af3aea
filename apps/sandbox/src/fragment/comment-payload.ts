import { beginCell, Cell } from '@ton/core';
import { productPack, type SimProduct } from './products/registry';

/** Bytes of comment text Fragment keeps in the root cell (after the 32-bit zero opcode). */
export const ROOT_TEXT_BYTES = 35;
/** Max bytes in a continuation cell (1023 bits / 8). */
const CELL_TEXT_BYTES = 127;

/** An order's product and what it is for: its `quantity` (or, for a pack counted in them, `months`). */
export type CommentProduct = { product: SimProduct; quantity?: number; months?: number };

/** Comment text per docs/fragment-protocol.md §6.1, as the product's pack words it. */
export function commentText(item: CommentProduct, ref: string): string {
  return productPack(item.product).comment({ quantity: item.quantity ?? item.months ?? 0 }, ref);
}

/**
 * Fragment's comment cell (docs/fragment-protocol.md §6.2): 32-bit zero opcode + the first 35
 * text bytes in the root, the rest in one referenced cell (snaked further if
 * it ever exceeded a cell). A standard snake encoder packs 123 bytes into the
 * root, giving the same text but a different cell hash.
 */
export function buildCommentCell(text: string): Cell {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [bytes.subarray(0, ROOT_TEXT_BYTES)];
  for (let offset = ROOT_TEXT_BYTES; offset < bytes.length; offset += CELL_TEXT_BYTES) {
    chunks.push(bytes.subarray(offset, offset + CELL_TEXT_BYTES));
  }
  let tail: Cell | null = null;
  for (let i = chunks.length - 1; i >= 1; i--) {
    const b = beginCell().storeBuffer(chunks[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const root = beginCell().storeUint(0, 32).storeBuffer(chunks[0]!);
  if (tail) root.storeRef(tail);
  return root.endCell();
}

/**
 * BOC as Fragment serialises payloads: flags 0x01 (no index, no CRC), standard base64 with
 * padding (`te6ccgEB…=`), as a live `get…Link` answer shows (pyfragment's fixture,
 * packages/fragment/test/fixtures/public).
 */
export function encodePayload(cell: Cell): string {
  return cell.toBoc({ idx: false, crc32: false }).toString('base64');
}

/** Accepts base64 or base64url, padded or not. */
export function decodePayload(text: string): Cell {
  return Cell.fromBoc(Buffer.from(text, 'base64'))[0]!;
}

/** Reads a text comment (32-bit zero opcode + snake text). Returns undefined for anything else. */
export function readComment(cell: Cell): string | undefined {
  try {
    const slice = cell.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined;
    const parts: Buffer[] = [];
    let current = slice;
    for (;;) {
      if (current.remainingBits % 8 !== 0) return undefined;
      parts.push(current.loadBuffer(current.remainingBits / 8));
      if (current.remainingRefs === 0) break;
      current = current.loadRef().beginParse();
    }
    return Buffer.concat(parts).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The 9-character order code in a comment (`…Ref#ABC123xyz`). */
export function extractRef(text: string): string | undefined {
  return /Ref#([A-Za-z0-9]+)\s*$/.exec(text)?.[1];
}
