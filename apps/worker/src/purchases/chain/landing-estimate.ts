import type { StepDeps } from '../step-deps';

const SAMPLES = 21;
const MIN_SAMPLES = 3;
/** Aim a little before the typical landing, so a late lookup costs at most one poll interval. */
const AIM = 0.9;

/**
 * How long this process's recent externals took from broadcast to being found on chain. A batch's
 * first lookup is aimed at that time instead of one poll interval after the broadcast: on a chain
 * whose blocks take longer than a poll interval, every first lookup was a miss costing each member
 * a job. Each sample is quantized by the polling that found it, so the aim settles just past the
 * block time.
 */
export class LandingEstimate {
  private readonly broadcasts = new Map<string, number>();
  private readonly samples: number[] = [];

  broadcast(batchId: string, at: number): void {
    this.broadcasts.set(batchId, at);
    if (this.broadcasts.size > 1_000) this.broadcasts.delete(this.broadcasts.keys().next().value as string);
  }

  /** The batch's transaction was found at `at` (only the first report of a batch counts). */
  found(batchId: string, at: number): void {
    const broadcastAt = this.broadcasts.get(batchId);
    if (broadcastAt === undefined) return;
    this.broadcasts.delete(batchId);
    this.samples.push(at - broadcastAt);
    if (this.samples.length > SAMPLES) this.samples.shift();
  }

  /** Delay from broadcast to the first lookup: at least `minMs`, at most `maxMs`. */
  firstLookupAfterMs(minMs: number, maxMs: number): number {
    if (this.samples.length < MIN_SAMPLES) return minMs;
    const sorted = [...this.samples].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return Math.min(maxMs, Math.max(minMs, Math.round(median * AIM)));
  }
}

const estimates = new WeakMap<object, LandingEstimate>();

/** The estimate of this worker process (per chain client). */
export function landingEstimate(deps: StepDeps): LandingEstimate {
  let estimate = estimates.get(deps.chain);
  if (!estimate) {
    estimate = new LandingEstimate();
    estimates.set(deps.chain, estimate);
  }
  return estimate;
}
