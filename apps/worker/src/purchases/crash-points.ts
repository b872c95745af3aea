/**
 * Crash injection for the crash-safety tests: with `STARSGATE_CRASH_AT=<point>` (read and checked
 * by loadWorkerConfig) the worker kills itself with SIGKILL (no cleanup, no graceful shutdown) the
 * first time it reaches that point. Unset (production), `crashAt` is a comparison against
 * undefined and nothing else.
 */
export const CRASH_POINTS = [
  'after_claim',
  'after_sign_before_persist',
  'after_persist_before_broadcast',
  'after_broadcast_before_confirm',
  'during_confirming',
] as const;

/** Points only a client-signed checkout reaches (its own crash-safety test). */
export const CHECKOUT_CRASH_POINTS = ['after_checkout_accepted'] as const;

export const ALL_CRASH_POINTS = [...CRASH_POINTS, ...CHECKOUT_CRASH_POINTS] as const;

export type CrashPoint = (typeof ALL_CRASH_POINTS)[number];

export function crashAt(config: { crashAt: CrashPoint | undefined }, point: CrashPoint): void {
  if (config.crashAt === undefined || config.crashAt !== point) return;
  process.kill(process.pid, 'SIGKILL');
}
