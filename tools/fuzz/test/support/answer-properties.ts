/**
 * The properties every answer of the gateway must have, whatever was sent: an answer within the
 * bound, never a 5xx, and every 4xx in the one error body with a code of the catalogue and its
 * `details` (naming the field for a 400, as the spec's error table asks).
 */
import { ERROR_CATALOGUE } from '@starsgate/domain';
import type { RawOutcome, RawResponse } from './raw-http';

export class PropertyViolation extends Error {
  constructor(what: string, request: string, outcome: unknown) {
    super(`${what}\n  request: ${request}\n  answer: ${JSON.stringify(outcome).slice(0, 1_500)}`);
    this.name = 'PropertyViolation';
  }
}

/** Short, printable description of what was sent, for the failure report. */
export function describeRequest(method: string, path: string, body?: Buffer | string, extra = ''): string {
  const text = body === undefined ? '' : Buffer.isBuffer(body) ? body.toString('latin1') : body;
  return `${method} ${path.slice(0, 300)}${extra ? ` ${extra}` : ''}${text ? ` body(${text.length}): ${JSON.stringify(text.slice(0, 400))}` : ''}`;
}

export interface ErrorBody {
  code: string;
  message: string;
  details: Array<{ field: string; message: string }>;
  request_id: string;
}

function errorBodyOf(response: RawResponse, request: string): ErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new PropertyViolation(`a ${response.status} whose body is not JSON`, request, response.text.slice(0, 300));
  }
  const candidate = body as Partial<ErrorBody> | null;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.code !== 'string')
    throw new PropertyViolation(`a ${response.status} without a code`, request, body);
  if (!Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, candidate.code))
    throw new PropertyViolation(`a ${response.status} with a code outside the catalogue`, request, body);
  if (
    !Array.isArray(candidate.details) ||
    !candidate.details.every(
      (detail: unknown) =>
        detail !== null &&
        typeof detail === 'object' &&
        typeof (detail as { field?: unknown }).field === 'string' &&
        typeof (detail as { message?: unknown }).message === 'string',
    )
  )
    throw new PropertyViolation(`a ${response.status} whose details are not [{ field, message }]`, request, body);
  if (response.status === 400 && candidate.details.length === 0)
    throw new PropertyViolation('a 400 whose details name no field', request, body);
  if (typeof candidate.message !== 'string' || typeof candidate.request_id !== 'string')
    throw new PropertyViolation(`a ${response.status} without message or request_id`, request, body);
  return candidate as ErrorBody;
}

/**
 * Checks the answer's properties and returns the response. A 4xx comes back with its parsed
 * error body (`error`).
 */
export function checkAnswer(
  outcome: RawOutcome,
  request: string,
  options: { head?: boolean } = {},
): RawResponse & { error?: ErrorBody } {
  if (outcome.kind === 'timeout') throw new PropertyViolation('no answer within the bound (a hang)', request, outcome);
  if (outcome.kind === 'closed')
    throw new PropertyViolation('the connection closed without an answer', request, outcome);
  const { response } = outcome;
  if (response.status >= 500)
    throw new PropertyViolation(`a ${response.status}`, request, {
      status: response.status,
      body: response.text.slice(0, 800),
    });
  // A HEAD answer has no body by definition: its status is all there is to check.
  if (response.status >= 400 && !options.head) return { ...response, error: errorBodyOf(response, request) };
  return response;
}
