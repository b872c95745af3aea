/**
 * Runs one task per key at a time in this process, in arrival order: a checkout's count of its
 * payer's open checkouts and its insert happen with no other checkout of the same payer between
 * them, so concurrent requests cannot all pass the cap on the same count (docs/security.md,
 * attack 17). Across gateway replicas each may still pass one at the same moment: the cap holds
 * to within the number of replicas.
 */
export class PerPayerQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(payer: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(payer) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(payer, tail);
    void tail.then(() => {
      if (this.tails.get(payer) === tail) this.tails.delete(payer);
    });
    return result;
  }
}
