import { ReentrantMutex } from '../src/mutex';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('ReentrantMutex', () => {
  it('runs holders one at a time in arrival order', async () => {
    const mutex = new ReentrantMutex();
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

  it('lets the holder re-enter and releases after a failure', async () => {
    const mutex = new ReentrantMutex();
    const nested = await mutex.run(async () => {
      expect(mutex.held()).toBe(true);
      return mutex.run(async () => 'inner');
    });
    expect(nested).toBe('inner');
    expect(mutex.held()).toBe(false);
    await expect(mutex.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run(async () => 'after')).resolves.toBe('after');
  });

  it('does not let an outside caller in while a holder awaits', async () => {
    const mutex = new ReentrantMutex();
    const log: string[] = [];
    const holder = mutex.run(async () => {
      log.push('holder:1');
      await tick();
      await mutex.run(async () => log.push('holder:nested'));
      log.push('holder:2');
    });
    const outsider = mutex.run(async () => log.push('outsider'));
    await Promise.all([holder, outsider]);
    expect(log).toEqual(['holder:1', 'holder:nested', 'holder:2', 'outsider']);
  });

  it('is busy while anyone holds or waits for it, and idle again after failures', async () => {
    const mutex = new ReentrantMutex();
    expect(mutex.busy()).toBe(false);
    let busyInside = false;
    const holder = mutex.run(async () => {
      await tick();
      busyInside = mutex.busy();
    });
    const waiter = mutex.run(async () => Promise.reject(new Error('boom')));
    expect(mutex.busy()).toBe(true);
    await holder;
    expect(busyInside).toBe(true);
    await expect(waiter).rejects.toThrow('boom');
    expect(mutex.busy()).toBe(false);
  });
});
