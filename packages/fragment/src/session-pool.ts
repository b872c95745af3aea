import type { FragmentClient } from './client';

/**
 * Several Fragment login sessions used as one. Fragment allows one purchase flow at a time per
 * session (docs/fragment-protocol.md §12), so a single session serializes every order's sync → init; with N sessions N
 * flows run at once. A flow goes to the session with the fewest flows in progress.
 * An order can only be confirmed by the session that created it: callers keep the returned
 * `sessionId` with the order and pass it to `session()` later.
 */
export class FragmentSessionPool {
  private readonly busy = new Map<FragmentClient, number>();
  private readonly byId = new Map<string, FragmentClient>();
  private next = 0;

  constructor(readonly clients: readonly FragmentClient[]) {
    if (clients.length === 0) throw new TypeError('FragmentSessionPool needs at least one client');
    for (const client of clients) {
      this.busy.set(client, 0);
      this.byId.set(client.sessionId(), client);
    }
  }

  /**
   * Runs `flow` holding one session's flow mutex (and its lease, when the clients have `leases`); resolves with that session's id and the result.
   * `before` (a search) runs on the same session first, outside the flow mutex, while the
   * session's current flow goes on; its result is handed to `flow`.
   */
  async flow<T, B = undefined>(
    flow: (client: FragmentClient, before: B) => Promise<T>,
    before?: (client: FragmentClient) => Promise<B>,
  ): Promise<{ sessionId: string; result: T }> {
    const client = this.leastBusy();
    this.busy.set(client, (this.busy.get(client) ?? 0) + 1);
    try {
      const prepared = before ? await before(client) : (undefined as B);
      const result = await client.exclusive((view) => flow(view, prepared));
      return { sessionId: client.sessionId(), result };
    } finally {
      this.busy.set(client, (this.busy.get(client) ?? 1) - 1);
    }
  }

  /**
   * Reads each session's pages and syncs its flow state for both products, all sessions at once,
   * so the first orders load no page, and a dead login shows at start rather than on a
   * purchase. Never throws: resolves with each session's error, if any.
   */
  async warmUp(): Promise<Array<{ sessionId: string; error?: Error }>> {
    return Promise.all(
      this.clients.map(async (client) => {
        try {
          await client.exclusive(async (view) => {
            await view.syncState('stars');
            await view.syncState('premium');
          });
          return { sessionId: client.sessionId() };
        } catch (error) {
          return { sessionId: client.sessionId(), error: error instanceof Error ? error : new Error(String(error)) };
        }
      }),
    );
  }

  /**
   * The session with this id; the first session when the id is unknown (an order created before
   * the pool changed, or before sessions were recorded). Its confirm may then be refused, which the
   * caller treats like any failed confirm: Fragment also matches payments by their Ref#.
   */
  session(sessionId: string | undefined): FragmentClient {
    return (sessionId !== undefined ? this.byId.get(sessionId) : undefined) ?? this.clients[0]!;
  }

  private leastBusy(): FragmentClient {
    let best: FragmentClient | undefined;
    let bestLoad = Number.POSITIVE_INFINITY;
    // Start after the last pick so ties rotate instead of always landing on the first session.
    for (let i = 0; i < this.clients.length; i += 1) {
      const client = this.clients[(this.next + i) % this.clients.length]!;
      const load = this.busy.get(client) ?? 0;
      if (load < bestLoad) {
        best = client;
        bestLoad = load;
      }
    }
    this.next = (this.clients.indexOf(best!) + 1) % this.clients.length;
    return best!;
  }
}
