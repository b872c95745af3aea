import { createHash } from 'node:crypto';
import { beginCell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';

/**
 * The start-up self-check of the build-time patch that puts @ton/core's cell hashes on node:crypto
 * (packages/ton/patches/README.md): true when @ton/crypto's `sha256_sync` is the patched one on
 * node:crypto and a cell hashes to its representation's standard SHA-256. False means the patch
 * did not apply (an install without it, a moved version): the service is right, only slower.
 */
export function nativeCellHashing(): boolean {
  if ((sha256_sync as { native?: unknown }).native !== true) return false;
  // An ordinary cell of 16 bits and no refs: descriptors 0x00 (no refs) and 0x04 (2 full bytes), then the data.
  const cell = beginCell().storeUint(0x5354, 16).endCell();
  const representation = Buffer.from([0x00, 0x04, 0x53, 0x54]);
  return cell.hash().equals(createHash('sha256').update(representation).digest());
}
