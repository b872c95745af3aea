import type { FragmentClient } from './client';
import { isFragmentError } from './errors';
import { LoginStates, type LoginState } from './login-states';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';

export interface FragmentSessionPoolOptions {
  /**
   * Where each login's alive/dead state lives: Redis (shared by every replica and the operator
   * API) or, by default, this process's memory.
   */
  states?: LoginStates;
  /** Told of a login's state whenever this pool turns it alive or dead (logs). */
  onStateChange?: (state: LoginState) => void;
}

/**
 * Several Fragment login sessions used as one. Fragment allows one purchase flow at a time per
 * session (docs/fragment-protocol.md §12), so a single session serializes every order's sync → init; with N sessions N
 * flows run at once. A flow goes to the session with the fewest flows in progress.
 * An order can only be confirmed by the session that created it: callers keep the returned
 * `sessionId` with the order and pass it to `session()` later.
 *
 * A login whose flow answers as logged out (SESSION_INVALID) is marked dead in `states` and
 * taken out of rotation for every replica sharing them; `recheckDead()`, run on a schedule,
 * reads a dead login's page and brings it back once it shows a live login
 * (docs/fragment-protocol.md §20.3).
 */
export class FragmentSessionPool {
  private readonly busy = new Map<FragmentClient, number>();
  private readonly byId = new Map<string, FragmentClient>();
  private next = 0;
  private current: readonly FragmentClient[] = [];
  readonly states: LoginStates;

  constructor(
    clients: readonly FragmentClient[],
    private readonly options: FragmentSessionPoolOptions = {},
  ) {
    this.states = options.states ?? LoginStates.inMemory();
    this.replaceClients(clients);
  }

  /** The logins in rotation (dead ones included: `flow` skips those). */
  get clients(): readonly FragmentClient[] {
    return this.current;
  }

  /**
   * The configured logins changed (FRAGMENT_COOKIES_FILE rewritten): flows go to `clients` from
   * now on; flows under way finish on theirs, and `session(id)` still finds a removed login for
   * the orders it created. Resolves once the removed logins' states are forgotten.
   */
  async reconfigure(clients: readonly FragmentClient[]): Promise<void> {
    const kept = new Set(clients.map((client) => client.sessionId()));
    const removed = this.current.filter((client) => !kept.has(client.sessionId()));
    this.replaceClients(clients);
    await Promise.all(removed.map((client) => this.states.forget(client.sessionId()).catch(() => undefined)));
    await this.recheckDead();
  }

  private replaceClients(clients: readonly FragmentClient[]): void {
    if (clients.length === 0) throw new TypeError('FragmentSessionPool needs at least one client');
    for (const client of clients) {
      if (!this.busy.has(client)) this.busy.set(client, 0);
      this.byId.set(client.sessionId(), client);
    }
    this.current = [...clients];
    this.next = 0;
  }

  /**
   * Runs `flow` holding one live session's flow mutex (and its lease, when the clients have
   * `leases`); resolves with that session's id and the result. `before` (a search) runs on the
   * same session first, outside the flow mutex, while the session's current flow goes on; its
   * result is handed to `flow`.
   */
  async flow<T, B = undefined>(
    flow: (client: FragmentClient, before: B) => Promise<T>,
    before?: (client: FragmentClient) => Promise<B>,
  ): Promise<{ sessionId: string; result: T }> {
    const { candidates, allDead } = await this.candidates();
    const client = this.leastBusy(candidates);
    this.busy.set(client, (this.busy.get(client) ?? 0) + 1);
    try {
      const prepared = before ? await before(client) : (undefined as B);
      const result = await client.exclusive((view) => flow(view, prepared));
      if (allDead) await this.markAlive(client, undefined);
      await this.states.recordOrder(client.sessionId()).catch(() => undefined);
      return { sessionId: client.sessionId(), result };
    } catch (error) {
      if (isFragmentError(error) && error.kind === 'SESSION_INVALID') await this.markDead(client, error.message);
      throw error;
    } finally {
      this.busy.set(client, (this.busy.get(client) ?? 1) - 1);
    }
  }

  /**
   * Reads each session's pages and syncs its flow state for the products whose pack asks it
   * (`warmUp`), all sessions at once,
   * so the first orders load no page, and a dead login shows at start rather than on a
   * purchase. Never throws: resolves with each session's error, if any.
   */
  async warmUp(): Promise<Array<{ sessionId: string; error?: Error }>> {
    return Promise.all(
      this.clients.map(async (client) => {
        try {
          await client.exclusive(async (view) => {
            for (const product of FRAGMENT_PRODUCT_NAMES.filter((name) => fragmentPack(name).warmUp))
              await view.syncState(product);
          });
          await this.markAlive(client, (await client.sessionStatus()).wallet);
          return { sessionId: client.sessionId() };
        } catch (error) {
          if (isFragmentError(error) && error.kind === 'SESSION_INVALID') await this.markDead(client, error.message);
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

  /**
   * Reads each dead login's page (read only, no flow) and marks it alive again when the page shows
   * a live login; resolves with the logins brought back. Never throws: a login whose page cannot
   * be read now stays as it is.
   */
  async recheckDead(): Promise<string[]> {
    const dead = await this.states.deadIds().catch(() => new Set<string>());
    const revived: string[] = [];
    for (const client of this.clients) {
      if (!dead.has(client.sessionId())) continue;
      try {
        const status = await client.sessionStatus();
        if (status.loggedIn === false) await this.markDead(client, 'Fragment page shows a logged-out login');
        else {
          await this.markAlive(client, status.wallet);
          revived.push(client.sessionId());
        }
      } catch (error) {
        if (isFragmentError(error) && error.kind === 'SESSION_INVALID') await this.markDead(client, error.message);
      }
    }
    return revived;
  }

  /** The configured logins' states (registered alive when no replica has recorded one yet). */
  async logins(): Promise<LoginState[]> {
    await Promise.all(this.clients.map((client) => this.states.register(client.sessionId(), client.accountId())));
    const ids = new Set(this.clients.map((client) => client.sessionId()));
    return (await this.states.all()).filter((state) => ids.has(state.sessionId));
  }

  /**
   * The logins an order may use: the live ones. With every login dead the order tries them all
   * the same (it fails as it would, and a login renewed or taken back by Fragment serves at once,
   * before the next recheck). States unreadable (Redis down): every login; Fragment's answer decides.
   */
  private async candidates(): Promise<{ candidates: readonly FragmentClient[]; allDead: boolean }> {
    const dead = await this.states.deadIds().catch(() => new Set<string>());
    const alive = this.current.filter((client) => !dead.has(client.sessionId()));
    return alive.length > 0 ? { candidates: alive, allDead: false } : { candidates: this.current, allDead: true };
  }

  private async markDead(client: FragmentClient, reason: string): Promise<void> {
    const marked = await this.states.markDead(client.sessionId(), client.accountId(), reason).catch(() => undefined);
    if (marked?.changed) this.options.onStateChange?.(marked.state);
  }

  private async markAlive(client: FragmentClient, wallet: string | undefined): Promise<void> {
    const marked = await this.states.markAlive(client.sessionId(), client.accountId(), wallet).catch(() => undefined);
    if (marked?.changed) this.options.onStateChange?.(marked.state);
  }

  private leastBusy(candidates: readonly FragmentClient[]): FragmentClient {
    let best: FragmentClient | undefined;
    let bestLoad = Number.POSITIVE_INFINITY;
    // Start after the last pick so ties rotate instead of always landing on the first session.
    for (let i = 0; i < candidates.length; i += 1) {
      const client = candidates[(this.next + i) % candidates.length]!;
      const load = this.busy.get(client) ?? 0;
      if (load < bestLoad) {
        best = client;
        bestLoad = load;
      }
    }
    this.next = (candidates.indexOf(best!) + 1) % candidates.length;
    return best!;
  }
}
