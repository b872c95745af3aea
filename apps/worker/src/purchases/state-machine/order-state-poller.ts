import type { FragmentClient } from '@starsgate/fragment';

type Product = 'stars' | 'premium';

export interface ObservedOrderState {
  done: boolean;
  /** The status screen's text, naming the order the session shows. */
  statusText: string;
}

interface Observation {
  startedAt: number;
  result: Promise<ObservedOrderState>;
}

const latest = new WeakMap<FragmentClient, Map<Product, Observation>>();

/**
 * Fragment's completion state is per cookie session and product, not per order (protocol §8.2),
 * so every purchase waiting in `confirming` would ask the same question. One poll started after
 * `notBefore` answers all of them; a poll started earlier is never reused (it may predate this
 * purchase's confirm).
 */
export function fragmentReportsDone(client: FragmentClient, product: Product, notBefore: number, now: number, maxAgeMs: number): Promise<ObservedOrderState> {
  let byProduct = latest.get(client);
  if (!byProduct) {
    byProduct = new Map();
    latest.set(client, byProduct);
  }
  const cached = byProduct.get(product);
  if (cached && cached.startedAt >= notBefore && now - cached.startedAt <= maxAgeMs) return cached.result;
  const result = client.pollOrderState(product).then(
    (state) => ({ done: state.done, statusText: state.statusText }),
    () => ({ done: false, statusText: '' }),
  );
  byProduct.set(product, { startedAt: now, result });
  return result;
}
