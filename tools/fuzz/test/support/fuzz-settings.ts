/**
 * How much to fuzz and with which seed. `npm test` runs a fixed seed and a modest number of cases
 * (a few seconds per property); `npm run fuzz` sets FUZZ_RUNS (a multiplier of those numbers) and
 * FUZZ_SEED (random unless given, printed so a failure can be replayed).
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';

/** The seed of the CI subset: fixed, so `npm test` is the same run every time. */
const CI_SEED = 19;

export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : CI_SEED;
const MULTIPLIER = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : 1;
if (!Number.isInteger(FUZZ_SEED) || !Number.isFinite(MULTIPLIER) || MULTIPLIER <= 0)
  throw new Error('FUZZ_SEED must be an integer and FUZZ_RUNS a positive number');

/** Jest's limit for one fuzz test: grows with FUZZ_RUNS (a full run of every operation takes minutes). */
export const FUZZ_TEST_TIMEOUT_MS = 240_000 + 60_000 * MULTIPLIER;

/** Cases of one property: its CI count times FUZZ_RUNS. */
export function runs(ciRuns: number): number {
  return Math.max(1, Math.round(ciRuns * MULTIPLIER));
}

const counted = new Map<string, number>();

/** Counts one case of `property` (the summary prints how many ran). */
export function countCase(property: string): void {
  counted.set(property, (counted.get(property) ?? 0) + 1);
}

/**
 * Runs `property` with the suite's seed and `ciRuns` scaled by FUZZ_RUNS; fast-check's own report
 * on a failure names the seed and the path that replay the shrunk counterexample.
 */
export async function assertProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  ciRuns: number,
  examples: T[] = [],
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      countCase(name);
      await predicate(value);
    }),
    {
      seed: FUZZ_SEED,
      numRuns: runs(ciRuns),
      examples: examples.map((example) => [example] as [T]),
      endOnFailure: true,
    },
  );
}

export function assertSyncProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => void,
  ciRuns: number,
  examples: T[] = [],
): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      countCase(name);
      predicate(value);
    }),
    {
      seed: FUZZ_SEED,
      numRuns: runs(ciRuns),
      examples: examples.map((example) => [example] as [T]),
      endOnFailure: true,
    },
  );
}

/**
 * One summary line per property and a total, printed after the file's tests (and appended to
 * FUZZ_SUMMARY_FILE when `npm run fuzz` collects them).
 */
export function printSummary(suite: string): void {
  const total = [...counted.values()].reduce((sum, count) => sum + count, 0);
  const lines = [...counted].map(([property, count]) => `fuzz ${suite} | ${property}: ${count} cases`);
  lines.push(`fuzz ${suite} | total: ${total} cases, seed ${FUZZ_SEED}, FUZZ_RUNS ${MULTIPLIER}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (process.env.FUZZ_SUMMARY_FILE) appendFileSync(process.env.FUZZ_SUMMARY_FILE, `${lines.join('\n')}\n`);
}
