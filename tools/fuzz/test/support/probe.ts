/**
 * One fuzz case against the running gateway: snapshot what is stored, send the request, check the
 * answer's properties and, when it was refused (4xx), that nothing was stored.
 */
import { checkAnswer, describeRequest, PropertyViolation, type ErrorBody } from './answer-properties';
import { storedChanges, type FuzzStack } from './fuzz-stack';
import { rawRequest, type RawRequestSpec, type RawResponse } from './raw-http';

/** Status counts per property, printed beside the case counts. */
export const statusHistogram = new Map<string, Map<number, number>>();
/** Error codes per property (a 4xx's `code`). */
const codeHistogram = new Map<string, Map<string, number>>();

function bump<K>(histogram: Map<string, Map<K, number>>, property: string, key: K): void {
  const counts = histogram.get(property) ?? new Map<K, number>();
  counts.set(key, (counts.get(key) ?? 0) + 1);
  histogram.set(property, counts);
}

export function histogramLine(property: string): string {
  const statuses = [...(statusHistogram.get(property) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
  const codes = [...(codeHistogram.get(property) ?? new Map<string, number>())].sort(([, a], [, b]) => b - a);
  return `${statuses.map(([status, count]) => `${status}×${count}`).join(' ')}  codes: ${codes.map(([code, count]) => `${code}×${count}`).join(' ')}`;
}

export async function probe(
  stack: FuzzStack,
  property: string,
  spec: RawRequestSpec,
  options: { halfClose?: boolean; head?: boolean; extra?: string } = {},
): Promise<RawResponse & { error?: ErrorBody }> {
  const description = describeRequest(spec.method, spec.path, spec.body, options.extra);
  const before = await stack.snapshot();
  const outcome = await rawRequest(stack.portFor(spec.path), spec, options);
  const response = checkAnswer(outcome, description, { head: options.head });
  bump(statusHistogram, property, response.status);
  if (response.error) bump(codeHistogram, property, response.error.code);
  if (response.status >= 400) {
    const changes = storedChanges(before, await stack.snapshot());
    if (changes.length > 0)
      throw new PropertyViolation(
        `a ${response.status} stored something: ${changes.join('; ')}`,
        description,
        response.text,
      );
  }
  return response;
}
