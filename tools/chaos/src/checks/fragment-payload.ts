/**
 * Reads a Fragment payment's reference from a message body, independently of the simulator's code:
 * a text comment (32-bit zero opcode, snake text) ending in `Ref#<code>`, or a TEP-74
 * `transfer_notification` whose forward payload is that comment.
 */
import type { Cell } from '@ton/core';

const OP_TRANSFER_NOTIFICATION = 0x7362d09c;

function commentOf(cell: Cell): string | undefined {
  try {
    let slice = cell.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return undefined;
    const parts: Buffer[] = [];
    for (;;) {
      if (slice.remainingBits % 8 !== 0) return undefined;
      parts.push(slice.loadBuffer(slice.remainingBits / 8));
      if (slice.remainingRefs === 0) break;
      slice = slice.loadRef().beginParse();
    }
    return Buffer.concat(parts).toString('utf8');
  } catch {
    return undefined;
  }
}

function refOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : /Ref#([A-Za-z0-9]+)\s*$/.exec(text)?.[1];
}

export type DecodedPayment = { kind: 'gram' | 'usdt'; ref: string } | undefined;

export function decodeFragmentPayment(body: Cell): DecodedPayment {
  try {
    const slice = body.beginParse();
    if (slice.remainingBits >= 32 && slice.preloadUint(32) === OP_TRANSFER_NOTIFICATION) {
      slice.loadUint(32);
      slice.loadUintBig(64); // query_id
      slice.loadCoins(); // amount
      slice.loadAddress(); // sender
      const payload = slice.remainingBits > 0 && slice.loadBit() ? slice.loadRef() : slice.asCell();
      const ref = refOf(commentOf(payload));
      return ref ? { kind: 'usdt', ref } : undefined;
    }
  } catch {
    return undefined;
  }
  const ref = refOf(commentOf(body));
  return ref ? { kind: 'gram', ref } : undefined;
}
