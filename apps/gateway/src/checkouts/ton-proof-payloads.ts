import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The payloads this gateway issued for TON Connect's `ton_proof`, in Redis so every gateway replica
 * knows them: a proof counts only over a payload issued here and not expired, so one signed for
 * another site, or long ago, proves nothing (docs/security.md, attack 19a).
 */
export class TonProofPayloads {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  async issue(now: number = Date.now()): Promise<{ payload: string; expiresAt: Date }> {
    const payload = randomBytes(32).toString('hex');
    await this.redis.set(`${this.prefix}ton-proof:${payload}`, '1', 'EX', this.ttlSeconds);
    return { payload, expiresAt: new Date(now + this.ttlSeconds * 1000) };
  }

  async isIssued(payload: string): Promise<boolean> {
    return /^[0-9a-f]{64}$/.test(payload) && (await this.redis.exists(`${this.prefix}ton-proof:${payload}`)) === 1;
  }
}
