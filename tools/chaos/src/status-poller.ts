/**
 * Polls each accepted purchase and checkout at a measured interval until it is final, as a client
 * following the spec does (the checks do not rely on these answers; they make realistic read load).
 */
import { Semaphore } from './concurrency';
import type { HttpClient } from './http-client';

const FINAL = new Set(['completed', 'failed', 'expired', 'reconciliation_required']);

export class StatusPoller {
  private readonly due = new Map<string, { path: string; at: number }>();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly slots = new Semaphore(4);
  finalSeen = 0;

  constructor(
    private readonly client: HttpClient,
    private readonly intervalMs = 20_000,
  ) {}

  track(kind: 'purchase' | 'checkout', id: string): void {
    this.due.set(id, { path: `/api/v1/${kind}s/${id}`, at: Date.now() + this.intervalMs });
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const now = Date.now();
        const batch = [...this.due.entries()].filter(([, entry]) => entry.at <= now);
        await Promise.all(
          batch.map(([id, entry]) =>
            this.slots.run(async () => {
              entry.at = Date.now() + this.intervalMs;
              try {
                const answer = await this.client.request('GET', entry.path);
                if (answer.status === 200 && FINAL.has(String(answer.body['status']))) {
                  this.due.delete(id);
                  this.finalSeen += 1;
                }
              } catch {
                // gave up this round; polled again next interval
              }
            }),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}
