import { FRAGMENT_ERROR_KINDS, FragmentError, type FragmentErrorMeaning } from '@starsgate/fragment';
import type { UpstreamCallObserver } from '@starsgate/platform';
import type { WorkerMetrics } from './worker-metrics';

/** What a call's outcome says of its login (the error table's `session`): an answer when it succeeded. */
function sessionVerdict(error: unknown): FragmentErrorMeaning['session'] {
  if (error === undefined) return 'answered';
  return error instanceof FragmentError ? FRAGMENT_ERROR_KINDS[error.kind].session : 'silent';
}
const CHAIN_WINDOW = 200;

export interface UpstreamErrorNote {
  /** FragmentError kind or the error's class name: never its text, which may carry a username. */
  kind: string;
  method: string;
  at: string;
}

export interface SessionHealth {
  /** Position in FRAGMENT_COOKIES (never the cookie or its hash). */
  session: number;
  /** null until the session's first answer. */
  valid: boolean | null;
  last_ok_at: string | null;
  last_error: UpstreamErrorNote | null;
}

export interface UpstreamHealthSnapshot {
  fragment_sessions: SessionHealth[];
  chain: {
    /** Over the last calls (up to 200). */
    calls: number;
    errors: number;
    mean_latency_ms: number | null;
    p95_latency_ms: number | null;
    last_error: UpstreamErrorNote | null;
  };
}

const errorKind = (error: unknown): string =>
  error instanceof FragmentError ? error.kind : error instanceof Error ? error.name : 'Error';

/**
 * What the worker knows of its upstreams from its own calls: each Fragment session valid or not
 * (and its last error), the chain provider's recent latency and errors. Feeds a gauge and the
 * snapshot the dashboard shows.
 */
export class UpstreamHealth {
  private readonly sessions: SessionHealth[];
  private readonly chainCalls: Array<{ ms: number; error: boolean }> = [];
  private chainLastError: UpstreamErrorNote | null = null;

  constructor(
    sessionCount: number,
    private readonly metrics: WorkerMetrics,
  ) {
    this.sessions = Array.from({ length: sessionCount }, (_, session) => ({
      session,
      valid: null,
      last_ok_at: null,
      last_error: null,
    }));
  }

  /** The observer of session `index`'s instrumented client. */
  fragmentObserver(index: number): UpstreamCallObserver {
    return ({ method, error }) => {
      // A login added by FRAGMENT_COOKIES_FILE after start gets its entry on its first call.
      const health = (this.sessions[index] ??= { session: index, valid: null, last_ok_at: null, last_error: null });
      const at = new Date().toISOString();
      const verdict = sessionVerdict(error);
      if (verdict === 'answered') {
        health.valid = true;
        health.last_ok_at = at;
      } else {
        health.last_error = { kind: errorKind(error), method, at };
        if (error instanceof FragmentError && error.kind === 'CLOUDFLARE')
          this.metrics.fragmentCloudflare.inc({ session: String(index), stop: error.cloudflare ?? 'challenge' });
        if (verdict === 'refused') health.valid = false;
      }
      if (health.valid !== null)
        this.metrics.fragmentSessionValid.set({ session: String(index) }, health.valid ? 1 : 0);
    };
  }

  readonly chainObserver: UpstreamCallObserver = ({ method, seconds, error }) => {
    this.chainCalls.push({ ms: seconds * 1000, error: error !== undefined });
    if (this.chainCalls.length > CHAIN_WINDOW) this.chainCalls.shift();
    if (error !== undefined) this.chainLastError = { kind: errorKind(error), method, at: new Date().toISOString() };
  };

  snapshot(): UpstreamHealthSnapshot {
    const latencies = this.chainCalls.map((call) => call.ms).sort((a, b) => a - b);
    const round = (ms: number | undefined): number | null => (ms === undefined ? null : Math.round(ms * 10) / 10);
    return {
      fragment_sessions: this.sessions.map((session) => ({ ...session })),
      chain: {
        calls: latencies.length,
        errors: this.chainCalls.filter((call) => call.error).length,
        mean_latency_ms:
          latencies.length === 0 ? null : round(latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length),
        p95_latency_ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))]),
        last_error: this.chainLastError,
      },
    };
  }
}
