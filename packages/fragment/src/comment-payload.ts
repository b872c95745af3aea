/**
 * Reading Fragment's payload cells (docs/fragment-protocol.md §6) for policy checks and for the `Ref#`
 * lookup key. DECODE ONLY: the cell that gets signed is always the one Fragment returned, byte for
 * byte (§0 rule 1; re-encoded comments have lost money). Nothing here builds a payload.
 *
 * Two shapes are understood:
 * - a text comment: 32-bit zero opcode + UTF-8 snake text (Fragment splits after 35 bytes);
 * - a TEP-74 jetton `transfer` (USDT on TON, §6.3) whose forward payload is that comment cell.
 */
import { Cell, type Slice } from '@ton/core';
// The TEP-74 decoder alone (packages/ton owns jetton bodies); its index also loads key derivation.
import { JETTON_OP, parseJettonTransferBody } from '@starsgate/ton';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';
import type { FragmentProduct } from './types';

export class FragmentPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FragmentPayloadError';
  }
}

export interface JettonTransferInfo {
  queryId: bigint;
  /** Jetton amount in base units (USDT: 6 decimals). */
  amount: bigint;
  /** Raw `0:hex` address the jettons go to (Fragment's receiving wallet). */
  destination: string;
  /** Raw address receiving the excess TON (should be the payer). */
  responseDestination: string | null;
  /** nanoTON forwarded with the transfer notification (Fragment: 1). */
  forwardTonAmount: bigint;
}

export interface DecodedComment {
  /** The full comment text: what the order is (its pack's `readComment`), then `\n\nRef#…`. */
  text: string;
  /** The 9-character `Ref#` code: Fragment's key for matching the payment to the order. */
  ref: string;
  product: FragmentProduct;
  /**
   * The order's quantity as its pack's comment reader reads it. Absent when the comment names no
   * amount (a `face_value` product: the payment's value is the amount).
   */
  quantity?: number;
  /** Present when the payload is a jetton transfer carrying the comment. */
  jetton?: JettonTransferInfo;
}

const TEXT_COMMENT_OP = 0;

/** `<what> \n\nRef#<9>`: every product's comment; `<what>` is read by the product's routes. */
const ORDER_COMMENT = /^(.+?)( ?)\n\nRef#([A-Za-z0-9]{9})$/s;

function parseBoc(payload: string): Cell {
  if (!/^[A-Za-z0-9_\-+/]+=*$/.test(payload)) throw new FragmentPayloadError('payload is not base64/base64url');
  let cells: Cell[];
  try {
    // Buffer's base64url decoder also accepts the standard alphabet and padding.
    cells = Cell.fromBoc(Buffer.from(payload, 'base64url'));
  } catch (error) {
    throw new FragmentPayloadError(`payload is not a valid BOC: ${(error as Error).message}`);
  }
  if (cells.length !== 1 || cells[0] === undefined)
    throw new FragmentPayloadError('payload BOC must have exactly one root');
  return cells[0];
}

/** UTF-8 bytes of a snake-encoded tail (root remainder, then first refs), strictly decoded. */
function snakeBytes(slice: Slice): Buffer {
  const chunks: Buffer[] = [];
  let current: Slice | undefined = slice;
  while (current) {
    if (current.remainingBits % 8 !== 0) throw new FragmentPayloadError('comment text is not byte-aligned');
    chunks.push(current.loadBuffer(current.remainingBits / 8));
    if (current.remainingRefs > 1) throw new FragmentPayloadError('comment cell has more than one reference');
    current = current.remainingRefs === 1 ? current.loadRef().beginParse() : undefined;
  }
  return Buffer.concat(chunks);
}

function commentFromCell(cell: Cell): string {
  const slice = cell.beginParse();
  if (slice.remainingBits < 32) throw new FragmentPayloadError('payload too short for an opcode');
  const op = slice.loadUint(32);
  if (op !== TEXT_COMMENT_OP) throw new FragmentPayloadError(`not a text comment (opcode 0x${op.toString(16)})`);
  const bytes = snakeBytes(slice);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FragmentPayloadError('comment text is not valid UTF-8');
  }
}

function jettonFromCell(cell: Cell): { jetton: JettonTransferInfo; forward: Cell } {
  const decoded = parseJettonTransferBody(cell);
  if (!decoded.destination) throw new FragmentPayloadError('jetton transfer without a destination');
  if (!decoded.forwardPayload) throw new FragmentPayloadError('jetton transfer without a forward payload (no comment)');
  return {
    jetton: {
      queryId: decoded.queryId,
      amount: decoded.amount,
      destination: decoded.destination.toRawString(),
      responseDestination: decoded.responseDestination ? decoded.responseDestination.toRawString() : null,
      forwardTonAmount: decoded.forwardTonAmount,
    },
    forward: decoded.forwardPayload,
  };
}

/** Parses the comment text into product, quantity and Ref#; throws if it is not Fragment's form. */
export function parseCommentText(text: string): Omit<DecodedComment, 'jetton'> {
  const match = ORDER_COMMENT.exec(text);
  if (match) {
    const [, what = '', space = '', ref = ''] = match;
    for (const product of FRAGMENT_PRODUCT_NAMES) {
      // Fragment writes ` \n\nRef#`; a pack whose evidence does not show the space takes either.
      if (space === '' && !fragmentPack(product).commentSpaceOptional) continue;
      const read = fragmentPack(product).readComment(what);
      if (read) return { text, ref, product, ...read };
    }
  }
  throw new FragmentPayloadError(`comment is not a known product's order: ${JSON.stringify(text)}`);
}

/**
 * Decodes a `messages[].payload` (base64url BOC, as returned) into the order comment, its Ref#,
 * product and quantity; for a USDT jetton transfer also the transfer fields. For checking only.
 */
export function decodeCommentPayload(payloadBase64url: string): DecodedComment {
  const root = parseBoc(payloadBase64url);
  const probe = root.beginParse();
  if (probe.remainingBits < 32) throw new FragmentPayloadError('payload too short for an opcode');
  const op = probe.loadUint(32);
  if (op === JETTON_OP.transfer) {
    let decoded: { jetton: JettonTransferInfo; forward: Cell };
    try {
      decoded = jettonFromCell(root);
    } catch (error) {
      if (error instanceof FragmentPayloadError) throw error;
      throw new FragmentPayloadError(`malformed jetton transfer: ${(error as Error).message}`);
    }
    return { ...parseCommentText(commentFromCell(decoded.forward)), jetton: decoded.jetton };
  }
  return parseCommentText(commentFromCell(root));
}
