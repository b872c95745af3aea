import { createHmac } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Deterministic randomness derived from the simulator seed: the same seed and
 * the same sequence of calls give the same tokens, refs and fault decisions.
 */
export class SeededRandom {
  private counter = 0;
  private floatBlock: Buffer = Buffer.alloc(0);
  private floatOffset = 0;

  constructor(private readonly seed: string) {}

  /** Stable bytes for a label (no counter): same seed + label = same bytes. */
  derive(label: string, length = 32): Buffer {
    const out: Buffer[] = [];
    let total = 0;
    for (let block = 0; total < length; block++) {
      const chunk = createHmac('sha256', this.seed).update(`${label}#${block}`).digest();
      out.push(chunk);
      total += chunk.length;
    }
    return Buffer.concat(out).subarray(0, length);
  }

  /** Next bytes of the seeded stream. */
  bytes(length: number, label = 'stream'): Buffer {
    return this.derive(`${label}:${this.counter++}`, length);
  }

  /** Uniform float in [0, 1): latency and fault decisions only, never money. */
  float(): number {
    // Every API call draws latency and faults: one HMAC block serves five draws.
    if (this.floatOffset + 6 > this.floatBlock.length) {
      this.floatBlock = this.bytes(30, 'float');
      this.floatOffset = 0;
    }
    const value = this.floatBlock.readUIntBE(this.floatOffset, 6) / 2 ** 48;
    this.floatOffset += 6;
    return value;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    if (max <= min) return min;
    return min + Math.floor(this.float() * (max - min + 1));
  }

  uint64(): bigint {
    return this.bytes(8, 'u64').readBigUInt64BE(0);
  }

  alnum(length: number): string {
    // Rejection sampling keeps the alphabet uniform (256 % 62 != 0).
    let out = '';
    while (out.length < length) {
      for (const byte of this.bytes(length * 2, 'alnum')) {
        if (byte < 248 && out.length < length) out += ALNUM[byte % 62];
      }
    }
    return out;
  }

  base64url(byteLength: number, label = 'b64'): string {
    return this.bytes(byteLength, label).toString('base64url');
  }

  hex(byteLength: number, label = 'hex'): string {
    return this.bytes(byteLength, label).toString('hex');
  }
}
