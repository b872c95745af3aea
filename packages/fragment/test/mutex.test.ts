import { Mutex } from '../src/mutex';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Mutex', () => {
  it('runs holders one at a time in arrival order', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    let active = 0;
    const task = (name: string) =>
      mutex.run(async () => {
        active++;
        expect(active).toBe(1);
        log.push(`${name}:start`);
        await tick();
        log.push(`${name}:end`);
        active--;
        return name;
      });
    await expect(Promise.all([task('a'), task('b'), task('c')])).resolves.toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('releases after a failure', async () => {
    const mutex = new Mutex();
    await expect(mutex.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run(() => Promise.resolve('after'))).resolves.toBe('after');
  });

  it('is busy while anyone holds or waits for it, and idle again after failures', async () => {
    const mutex = new Mutex();
    expect(mutex.busy()).toBe(false);
    let busyInside = false;
    const holder = mutex.run(async () => {
      await tick();
      busyInside = mutex.busy();
    });
    const waiter = mutex.run(() => Promise.reject(new Error('boom')));
    expect(mutex.busy()).toBe(true);
    await holder;
    expect(busyInside).toBe(true);
    await expect(waiter).rejects.toThrow('boom');
    expect(mutex.busy()).toBe(false);
  });
});
