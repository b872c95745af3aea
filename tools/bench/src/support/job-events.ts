/**
 * BullMQ job additions for bench:cost, counted exactly: every job BullMQ stores (standard, delayed,
 * prioritized, from a scheduler) writes an `added` entry to its queue's `<prefix>:<queue>:events`
 * stream (storeJob.lua); a job id already present writes `duplicated` instead. The streams are
 * capped (~10 000 entries), so they are read as they grow, every 250 ms, from the moment counting
 * starts, rather than once at the end. The streams are found by SCAN at the start, every 5 s and
 * at the end: a queue's stream appears with its first job, and one found only at the end has lost
 * its oldest entries to the cap; a SCAN walks the whole keyspace, so one every 250 ms was most of
 * Redis's CPU in the bench's figures once a few runs' keys had piled up (one every 5 s: ~1 ms).
 */
import Redis from 'ioredis';

export class JobEventCounter {
  private readonly cursors = new Map<string, string>();
  private streams: string[] = [];
  private polls = 0;
  /** queue stream → event name → count */
  readonly counts = new Map<string, Map<string, number>>();
  private timer?: NodeJS.Timeout;
  private reading?: Promise<void>;

  private constructor(
    private readonly redis: Redis,
    private readonly fromId: string,
    private readonly pattern: string,
  ) {}

  /** `prefix`: the stack's BULLMQ_PREFIX (its queues' streams are `<prefix>:<queue>:events`). */
  static async start(redisUrl: string, prefix: string): Promise<JobEventCounter> {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
    await redis.connect();
    const [seconds, micros] = await redis.time();
    const from = `${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}-0`;
    const counter = new JobEventCounter(redis, from, `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*:events`);
    await counter.findStreams();
    counter.timer = setInterval(() => void counter.read(), 250);
    return counter;
  }

  private read(): Promise<void> {
    this.polls += 1;
    const rescan = this.polls % 20 === 0;
    this.reading ??= (rescan ? this.findStreams() : Promise.resolve())
      .then(() => this.readStreams())
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  private async findStreams(): Promise<void> {
    let cursor = '0';
    const keys: string[] = [];
    do {
      const [next, found] = (await this.redis.call(
        'SCAN',
        cursor,
        'MATCH',
        this.pattern,
        'COUNT',
        1000,
        'TYPE',
        'stream',
      )) as [string, string[]];
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    this.streams = keys;
  }

  private async readStreams(): Promise<void> {
    for (const key of this.streams) {
      for (;;) {
        const from = this.cursors.get(key);
        const entries = await this.redis.xrange(key, from ? `(${from}` : this.fromId, '+', 'COUNT', 1000);
        if (entries.length === 0) break;
        const events = this.counts.get(key) ?? new Map<string, number>();
        this.counts.set(key, events);
        for (const [id, fields] of entries) {
          this.cursors.set(key, id);
          const at = fields.indexOf('event');
          const event = at >= 0 ? fields[at + 1]! : '?';
          events.set(event, (events.get(event) ?? 0) + 1);
        }
      }
    }
  }

  /** Reads what is left and stops: counts per queue (the stream's key less `:events`) and event. */
  async stop(): Promise<Record<string, Record<string, number>>> {
    clearInterval(this.timer);
    await this.reading;
    await this.findStreams();
    await this.readStreams();
    await this.redis.quit();
    return Object.fromEntries(
      [...this.counts].map(([key, events]) => [key.replace(/:events$/, ''), Object.fromEntries(events)]),
    );
  }
}

export const eventTotal = (counts: Record<string, Record<string, number>>, event: string) =>
  Object.values(counts).reduce((sum, events) => sum + (events[event] ?? 0), 0);
