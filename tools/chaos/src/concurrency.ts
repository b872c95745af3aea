/** At most `limit` tasks at once. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

/** Runs `start(i)` for i in 0..count-1 spread evenly over `durationMs`, and waits for all of them. */
export async function spreadOver(
  count: number,
  durationMs: number,
  start: (index: number) => Promise<void>,
): Promise<void> {
  const began = Date.now();
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = began + (durationMs * i) / Math.max(1, count);
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    tasks.push(start(i));
  }
  await Promise.all(tasks);
}
