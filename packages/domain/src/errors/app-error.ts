import { ERROR_CATALOGUE, type ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  message?: string;
  details?: ErrorDetail[];
  action?: string;
  retryAfterSeconds?: number;
  status?: number;
  cause?: unknown;
}

/**
 * An error with a stable code from the catalogue. Everything that can reach a client is an
 * AppError; anything else is reported as INTERNAL_ERROR without its text.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly action: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const definition = ERROR_CATALOGUE[code];
    super(options.message ?? definition.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? definition.status;
    this.details = options.details ?? [];
    this.action = options.action ?? ('action' in definition ? definition.action : undefined);
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** A client-input error about one field. */
  static field(code: ErrorCode, field: string, message?: string): AppError {
    const text = message ?? ERROR_CATALOGUE[code].message;
    return new AppError(code, { message: text, details: [{ field, message: text }] });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
