interface SharedCall {
  startedAt: number;
  result: Promise<unknown>;
}

const calls = new WeakMap<object, Map<string, SharedCall>>();

/**
 * `joined` sees every caller that is handed a call already in flight or done, with the call's
 * scope, and may wrap what it awaits: bench:pipeline counts the wait for an upstream answer
 * another job asked for as upstream time.
 */
export const sharedCallObserver: { joined?: <T>(scope: object, result: Promise<T>) => Promise<T> } = {};

/**
 * Many purchases ask the same upstream question at the same time (one batch's transaction, one
 * session's history, one wallet's version) or repeat the same idempotent act (rebroadcasting one
 * batch's BOC, releasing its wallet); one call answers all of them in this process. A call is
 * reused only if it started at or after `notBefore` (so it cannot predate what the caller waits
 * for) and at most `maxAgeMs` ago. A call that fails is not reused: the next caller tries again.
 */
export function sharedCall<T>(
  scope: object,
  key: string,
  options: { now: number; notBefore?: number; maxAgeMs: number },
  read: () => Promise<T>,
): Promise<T> {
  let byKey = calls.get(scope);
  if (!byKey) {
    byKey = new Map();
    calls.set(scope, byKey);
  }
  const { now, notBefore = 0, maxAgeMs } = options;
  const cached = byKey.get(key);
  if (cached && cached.startedAt >= notBefore && now - cached.startedAt <= maxAgeMs) {
    const result = cached.result as Promise<T>;
    return sharedCallObserver.joined ? sharedCallObserver.joined(scope, result) : result;
  }
  if (byKey.size > 1_000) {
    for (const [staleKey, entry] of byKey) if (now - entry.startedAt > maxAgeMs) byKey.delete(staleKey);
  }
  const result = read();
  const entry = { startedAt: now, result };
  byKey.set(key, entry);
  result.catch(() => {
    if (byKey.get(key) === entry) byKey.delete(key);
  });
  return result;
}
