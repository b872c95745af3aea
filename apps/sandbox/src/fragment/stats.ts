/** Upstream call counters: API calls by method name, page GETs as `GET <path>`. */
export class CallCounter {
  private readonly counts: Record<string, number> = {};

  count(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  snapshot(): Record<string, number> {
    return { ...this.counts };
  }

  reset(): void {
    for (const key of Object.keys(this.counts)) delete this.counts[key];
  }
}
