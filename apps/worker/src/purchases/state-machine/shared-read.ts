interface SharedRead {
  startedAt: number;
  result: Promise<unknown>;
}

const reads = new WeakMap<object, Map<string, SharedRead>>();

/**
 * Many purchases poll the same upstream question (one batch's transaction, one session's history)
 * at the same time; one read answers all of them in this process. A read is reused only if it
 * started at or after `notBefore` (so it cannot predate what the caller waits for) and at most
 * `maxAgeMs` ago. A read that fails is not reused: the next poll asks again.
 */
export function sharedRead<T>(scope: object, key: string, options: { now: number; notBefore?: number; maxAgeMs: number }, read: () => Promise<T>): Promise<T> {
  let byKey = reads.get(scope);
  if (!byKey) {
    byKey = new Map();
    reads.set(scope, byKey);
  }
  const { now, notBefore = 0, maxAgeMs } = options;
  const cached = byKey.get(key);
  if (cached && cached.startedAt >= notBefore && now - cached.startedAt <= maxAgeMs) return cached.result as Promise<T>;
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
