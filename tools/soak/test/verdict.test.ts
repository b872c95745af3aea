/**
 * The soak's end-of-run judgement on synthetic minutes: which slopes count as growing, when a
 * run is too short to judge, and when the backlog means the service falls behind.
 */
import type { MinuteRecord, ReportedProcess } from '../src/minute-record';
import { leastSquares } from '../src/slope';
import { judge } from '../src/verdict';

const PROCESSES: ReportedProcess[] = [
  { name: 'sandbox', kind: 'sandbox' },
  { name: 'gateway-1', kind: 'gateway' },
  { name: 'worker-1', kind: 'worker' },
];

/** Deterministic wobble of ±amplitude, as GC and scheduling give. */
const wobble = (minute: number, amplitude: number) => amplitude * Math.sin(minute * 2.3);

function minutes(
  count: number,
  shape: {
    workerRssPerMinute?: number;
    workerP99PerMinute?: number;
    machineP99PerMinute?: number;
    backlogPerMinute?: number;
    noise?: number;
  } = {},
): MinuteRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const minute = i + 1;
    const noise = wobble(minute, shape.noise ?? 3);
    const sample = (rss: number, p99: number) => ({
      rssMb: rss + noise,
      heapUsedMb: 50 + noise,
      delay: { p50: 0.2, p99: p99 + noise / 10, max: 40 },
      cpuPercent: 10,
    });
    return {
      minute,
      phase: 'load',
      seconds: 60,
      loadAverage: [2, 2, 2],
      processes: {
        sandbox: sample(250 + 5 * minute, 8),
        'gateway-1': sample(140, 6 + (shape.machineP99PerMinute ?? 0) * minute),
        'worker-1': sample(
          150 + (shape.workerRssPerMinute ?? 0) * minute,
          7 + (shape.workerP99PerMinute ?? 0) * minute,
        ),
      },
      reference: { p50: 0.1, p99: 5 + (shape.machineP99PerMinute ?? 0) * minute, max: 30 },
      redisServer: { rssMb: 20, cpuPercent: 1 },
      redis: { usedMemoryMb: 5 + 0.2 * minute, rssMb: 20, keys: 1000 + 100 * minute },
      postgres: {},
      backlog: { byStatus: {}, open: 60 + (shape.backlogPerMinute ?? 0) * minute },
      driver: { purchasesCreated: 50, checkoutsCreated: 10, finished: [] },
      calls: { byKind: new Map(), latencies: [], refusals: new Map(), errors: 0 },
      webhookDeliveries: 300,
    } satisfies MinuteRecord;
  });
}

test('least squares gives the slope of a straight line and a small error for a clean one', () => {
  const fit = leastSquares([1, 2, 3, 4, 5].map((x) => ({ x, y: 3 * x + 7 })))!;
  expect(fit.slope).toBeCloseTo(3, 10);
  expect(fit.standardError).toBeCloseTo(0, 10);
  expect(
    leastSquares([
      { x: 1, y: 1 },
      { x: 2, y: 2 },
    ]),
  ).toBeNull();
});

test('a 30-minute run with level memory and delay is flat, and the growing sandbox is reported but not judged', () => {
  const verdict = judge(minutes(30), PROCESSES, 3, 1);
  expect(verdict.failures).toEqual([]);
  const text = verdict.lines.join('\n');
  expect(text).toMatch(/gateway-1 .* flat/);
  expect(text).toMatch(/worker-1 .* flat/);
  expect(text).toMatch(/sandbox .*\+5\.00 .* not judged \(upstream stand-in/);
});

test('worker memory rising 3 MB a minute is a failure; so is p99 delay rising 1 ms a minute', () => {
  expect(judge(minutes(30, { workerRssPerMinute: 3 }), PROCESSES, 3, 1).failures).toEqual(['worker-1: rss not flat']);
  expect(judge(minutes(30, { workerP99PerMinute: 1 }), PROCESSES, 3, 1).failures).toEqual(['worker-1: delay not flat']);
});

test('p99 delay rising with the machine (the idle reference process rises alike) is not the service slowing down', () => {
  const busier = minutes(30, { machineP99PerMinute: 1 });
  expect(judge(busier, PROCESSES, 3, 1).failures).toEqual([]);
  expect(judge(busier, PROCESSES, 3, 1).lines.join('\n')).toMatch(/gateway-1 .*\+1\.000 .* flat/);
});

test('a slope over the threshold but within two standard errors of zero is noise, not growth', () => {
  const noisy = minutes(14, { workerRssPerMinute: 1.5, noise: 40 });
  const fit = leastSquares(noisy.slice(3).map((r) => ({ x: r.minute, y: r.processes['worker-1']!.rssMb })))!;
  expect(fit.slope).toBeGreaterThan(1);
  expect(fit.slope).toBeLessThan(2 * fit.standardError);
  expect(judge(noisy, PROCESSES, 3, 1).failures).toEqual([]);
});

test('a 2-minute run is too short to judge a leak: it says so and fails nothing, even with memory rising', () => {
  const verdict = judge(minutes(2, { workerRssPerMinute: 20 }), PROCESSES, 3, 1);
  expect(verdict.failures).toEqual([]);
  expect(verdict.lines.join('\n')).toContain('Too short to judge a leak');
});

test('a backlog that grows by more than a tenth of the arrivals each minute fails the run', () => {
  expect(judge(minutes(30, { backlogPerMinute: 10 }), PROCESSES, 3, 1).failures).toEqual([
    expect.stringMatching(/^backlog grows by 10\.0 orders per minute/),
  ]);
  expect(judge(minutes(30, { backlogPerMinute: 2 }), PROCESSES, 3, 1).failures).toEqual([]);
  // Too few minutes for a slope: more than three minutes of arrivals still open is falling behind.
  expect(judge(minutes(2, { backlogPerMinute: 100 }), PROCESSES, 3, 1).failures).toEqual([
    'backlog of 260 open orders after the load',
  ]);
});
