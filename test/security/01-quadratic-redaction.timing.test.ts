/**
 * Attack 1 (docs/security.md): a JSON key of letters just under the body limit is rejected as an
 * unknown field, and the rejection is logged at `info`. With a backtracking redactor each such
 * request held the gateway's event loop for a time quadratic in the key's length. Every answer
 * must come in milliseconds and `/livez` must stay fast while 50 of them run. A timing suite
 * (*.timing.test.ts): npm test runs these after every other suite, one at a time.
 */
import { startStack, type RunningStack } from '../support/running-stack';

const SINGLE_ANSWER_MAX_MS = 200;
const LIVEZ_MAX_MS = 1_000;
const CONCURRENT = 50;

/** `{"<key>":1}` of exactly `bytes` bytes, its key all letters. */
function bodyWithKeyOf(bytes: number): string {
  return `{"${'a'.repeat(bytes - 6)}":1}`;
}

async function post(stack: RunningStack, body: string): Promise<{ status: number; ms: number; json: unknown }> {
  const started = performance.now();
  const response = await fetch(`${stack.gatewayUrl}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const json: unknown = await response.json();
  return { status: response.status, ms: performance.now() - started, json };
}

/** Probes `/livez` one after another for as long as the flood runs; the slowest probe counts. */
async function livezWhileFlooded(stack: RunningStack, body: string): Promise<{ livezMs: number; statuses: number[] }> {
  let flooding = true;
  const flood = Promise.all(Array.from({ length: CONCURRENT }, () => post(stack, body))).finally(() => {
    flooding = false;
  });
  let livezMs = 0;
  while (flooding) {
    const started = performance.now();
    const livez = await fetch(`${stack.gatewayUrl}/livez`, { signal: AbortSignal.timeout(60_000) });
    livezMs = Math.max(livezMs, performance.now() - started);
    expect(livez.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answers = await flood;
  return { livezMs, statuses: answers.map((answer) => answer.status) };
}

describe.each([
  { limit: 16_384, label: 'the default body limit' },
  { limit: 1_048_576, label: 'BODY_LIMIT_BYTES at 1 MiB' },
])('an unknown field name just under $label', ({ limit }) => {
  let stack: RunningStack;
  const body = bodyWithKeyOf(limit - 16);

  beforeAll(async () => {
    stack = await startStack({ BODY_LIMIT_BYTES: String(limit), LOG_LEVEL: 'info', RATE_LIMIT_MAX: '100000' });
  }, 240_000);
  afterAll(() => stack?.stop());

  it('is answered 400 in milliseconds, its name clipped in the answer', async () => {
    const times: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await post(stack, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ code: 'UNKNOWN_FIELD' });
      const details = (answer.json as { details: Array<{ field: string }> }).details;
      expect(details[0]!.field.length).toBeLessThan(200);
      expect(JSON.stringify(answer.json).length).toBeLessThan(2_000);
      times.push(answer.ms);
    }
    // The median: one answer delayed by a busy machine proves nothing, a quadratic path delays them all.
    const median = times.sort((a, b) => a - b)[2]!;
    expect(median).toBeLessThan(SINGLE_ANSWER_MAX_MS);
  });

  it(`keeps /livez under ${LIVEZ_MAX_MS} ms while ${CONCURRENT} such requests run, and logs them clipped`, async () => {
    const { livezMs, statuses } = await livezWhileFlooded(stack, body);
    expect(livezMs).toBeLessThan(LIVEZ_MAX_MS);
    expect(statuses.every((status) => status === 400)).toBe(true);
    const rejected = stack
      .output()
      .split('\n')
      .filter((line) => line.includes('request rejected'));
    expect(rejected.length).toBeGreaterThan(0);
    for (const line of rejected) expect(line.length).toBeLessThan(4_000);
  }, 120_000);
});
