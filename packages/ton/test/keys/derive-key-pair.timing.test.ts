/**
 * A timing suite (*.timing.test.ts): npm test runs these after every other suite, one at a time, so
 * the event-loop gaps they bound are not the scheduler's on an oversubscribed machine.
 */
import { mnemonicNew } from '@ton/crypto';
import { deriveKeyPair } from '../../src';
import { clearKeyCache } from '../../src/testing';

describe('deriveKeyPair', () => {
  beforeEach(() => clearKeyCache());

  it('does not block the event loop: 50 concurrent ton_24 derivations while a 10 ms timer ticks', async () => {
    const phrases = await Promise.all(Array.from({ length: 50 }, () => mnemonicNew(24)));
    clearKeyCache();
    const single = Date.now();
    await deriveKeyPair(phrases[0]!.join(' '), 'ton_24');
    const singleMs = Date.now() - single;
    clearKeyCache();

    let last = performance.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const started = performance.now();
    const pairs = await Promise.all(phrases.map((words) => deriveKeyPair(words.join(' '), 'ton_24')));
    const totalMs = performance.now() - started;
    clearInterval(timer);
    expect(pairs).toHaveLength(50);
    expect(new Set(pairs.map((p) => p.publicKey.toString('hex'))).size).toBe(50);
    console.log(
      `ton_24 derivation: single ${singleMs} ms; 50 concurrent ${totalMs.toFixed(0)} ms; max event-loop gap ${maxGap.toFixed(1)} ms`,
    );
    expect(maxGap).toBeLessThan(250);
  });
});
