/**
 * The block clock keeps its cadence: the time a block takes to emulate does not stretch the
 * interval, and a block longer than the interval is followed at once, never overlapped.
 */
import { BlockProducer } from '../src/chain/block-producer';

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

/** A producer whose blocks take `durationMs` each, recording when each block started and ended. */
function clock(intervalMs: number, durationMs: number) {
  const started: number[] = [];
  const ended: number[] = [];
  const producer = new BlockProducer(intervalMs, async () => {
    started.push(performance.now());
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    ended.push(performance.now());
  });
  // A block in progress when the clock stops still needs its (fake) time to end.
  const stop = async () => {
    const stopping = producer.stop();
    await jest.advanceTimersByTimeAsync(durationMs);
    await stopping;
  };
  return { producer, started, ended, stop };
}

it('starts blocks every interval however long each takes to emulate', async () => {
  const { producer, started, stop } = clock(400, 150);
  const origin = performance.now();
  producer.start();
  await jest.advanceTimersByTimeAsync(2_000);
  await stop();
  expect(started.map((at) => Math.round(at - origin))).toEqual([400, 800, 1200, 1600, 2000]);
});

it('follows a block longer than the interval at once, without overlapping it', async () => {
  const { producer, started, ended, stop } = clock(400, 500);
  const origin = performance.now();
  producer.start();
  await jest.advanceTimersByTimeAsync(1_950);
  await stop();
  expect(started).toHaveLength(4);
  expect(Math.round(started[0]! - origin)).toBe(400);
  for (let i = 1; i < started.length; i += 1) {
    // Next block once the previous one ended (a timer's minimum delay apart), not 400 ms later.
    expect(started[i]! - ended[i - 1]!).toBeGreaterThanOrEqual(0);
    expect(started[i]! - ended[i - 1]!).toBeLessThan(5);
  }
});
