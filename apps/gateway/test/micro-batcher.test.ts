import { MicroBatcher, type Settled } from '../src/batching/micro-batcher';

function recordingBatcher(options = { maxBatchSize: 100, maxInFlight: 1 }) {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const batcher = new MicroBatcher<number, number>(async (items) => {
    batches.push([...items]);
    await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((item): Settled<number> =>
      item < 0 ? { ok: false, error: new Error(`bad ${item}`) } : { ok: true, value: item * 10 },
    );
  }, options);
  const releaseAll = async () => {
    while (releases.length > 0 || batches.length === 0) {
      releases.splice(0).forEach((release) => release());
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batcher, batches, releases, releaseAll };
}

describe('MicroBatcher', () => {
  it('runs the calls of one event-loop turn as one batch and settles each caller with its own result', async () => {
    const { batcher, batches, releaseAll } = recordingBatcher();
    const results = Promise.allSettled([1, -2, 3].map((item) => batcher.submit(item)));
    await releaseAll();
    const settled = await results;
    expect(batches).toEqual([[1, -2, 3]]);
    expect(
      settled.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
    ).toEqual([10, 'bad -2', 30]);
  });

  it('holds new calls while maxInFlight batches run, then sends them together', async () => {
    const { batcher, batches, releases } = recordingBatcher({ maxBatchSize: 100, maxInFlight: 1 });
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const later = [batcher.submit(2), batcher.submit(3)];
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    releases.shift()?.();
    await expect(first).resolves.toBe(10);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1], [2, 3]]);
    releases.shift()?.();
    await expect(Promise.all(later)).resolves.toEqual([20, 30]);
  });

  it('splits at maxBatchSize', async () => {
    const { batcher, batches, releaseAll } = recordingBatcher({ maxBatchSize: 2, maxInFlight: 4 });
    const all = Promise.all([1, 2, 3, 4, 5].map((item) => batcher.submit(item)));
    await releaseAll();
    await expect(all).resolves.toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('rejects every caller of a batch whose run throws, and keeps serving later calls', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(
      (items) =>
        fail
          ? Promise.reject(new Error('connection lost'))
          : Promise.resolve(items.map((item) => ({ ok: true as const, value: item }))),
      { maxBatchSize: 10, maxInFlight: 1 },
    );
    const failed = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(batcher.submit(3)).resolves.toBe(3);
  });
});
