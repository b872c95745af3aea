/** Typed errors. None holds a request body, so a seed never travels inside one. */

export interface ErrorFields {
  status?: number;
  code?: string;
  details?: Array<Record<string, unknown>>;
  action?: string;
  retryAfter?: number;
  requestId?: string;
  /** Only `METHOD /path`: never headers or a body. */
  request?: string;
}

export class StarsgateError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly details: Array<Record<string, unknown>>;
  readonly action: string | undefined;
  /** Seconds to wait before retrying (429, 503, 409 in progress). */
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;
  readonly request: string | undefined;

  constructor(message: string, fields: ErrorFields = {}) {
    super(message);
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details ?? [];
    this.action = fields.action;
    this.retryAfter = fields.retryAfter;
    this.requestId = fields.requestId;
    this.request = fields.request;
  }
}

/** The gateway could not be reached, or the connection broke before an answer. */
export class APIConnectionError extends StarsgateError {}
/** No answer within the timeout. A purchase retried with the same idempotency key is never duplicated. */
export class APITimeoutError extends APIConnectionError {}
/** A non-2xx answer with the standard error body. */
export class APIStatusError extends StarsgateError {}
/** A 2xx answer that is not JSON (a proxy's or captive portal's page). */
export class APIResponseValidationError extends StarsgateError {}
export class ValidationError extends APIStatusError {}
export class NotFoundError extends APIStatusError {}
export class IdempotencyConflictError extends APIStatusError {}
export class RateLimitError extends APIStatusError {}
export class ServiceUnavailableError extends APIStatusError {}
export class WalletSelectionRequiredError extends ValidationError {}
/** A purchase or checkout ended failed/expired: nothing was paid, a new order with a new key is safe. */
export class OrderFailedError extends StarsgateError {}
/** `wait` gave up before a terminal status: the order goes on, keep polling it, never replace it. */
export class WaitTimeoutError<T = unknown> extends StarsgateError {
  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message, { code: 'WAIT_TIMEOUT' });
  }
}
export class WebhookVerificationError extends StarsgateError {}
/** Thrown before any request when a seed-carrying method runs in a browser. */
export class BrowserSecretError extends StarsgateError {}
/** Thrown before any request when a seed would travel over plain http:// to another machine. */
export class InsecureTransportError extends StarsgateError {}

/** One currency a payer wallet is short of, as exact decimal strings. */
export interface Shortfall {
  currency: string;
  required: string;
  available: string;
  shortfall: string;
}

export function shortfallFrom(details: Array<Record<string, unknown>>): Shortfall[] {
  return details
    .filter((entry) => typeof entry.currency === 'string' && typeof entry.shortfall === 'string')
    .map((entry) => ({
      currency: entry.currency as string,
      required: typeof entry.required === 'string' ? entry.required : '0',
      available: typeof entry.available === 'string' ? entry.available : '0',
      shortfall: entry.shortfall as string,
    }));
}

export class TopUpRequiredError extends StarsgateError {
  readonly shortfall: Shortfall[];
  constructor(message: string, fields: ErrorFields = {}) {
    super(message, fields);
    this.shortfall = shortfallFrom(this.details);
  }
}

type ErrorClass = new (message: string, fields: ErrorFields) => StarsgateError;

const BY_CODE: Record<string, ErrorClass> = {
  WALLET_SELECTION_REQUIRED: WalletSelectionRequiredError,
  TOP_UP_REQUIRED: TopUpRequiredError,
  IDEMPOTENCY_KEY_REUSED: IdempotencyConflictError,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: IdempotencyConflictError,
  RATE_LIMITED: RateLimitError,
  AVAILABILITY_RATE_LIMITED: RateLimitError,
};

const BY_STATUS: Record<number, ErrorClass> = {
  400: ValidationError,
  404: NotFoundError,
  409: IdempotencyConflictError,
  413: ValidationError,
  415: ValidationError,
  422: ValidationError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/** One code map, then one status map: the class a caller catches. */
export function errorClassFor(status: number | undefined, code: string | undefined): ErrorClass {
  return (code && BY_CODE[code]) || (status !== undefined && BY_STATUS[status]) || APIStatusError;
}
