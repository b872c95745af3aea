import type { NextFunction, Request, Response } from 'express';
import { AppError, isAppError } from '@starsgate/domain';
import { IdempotencyKeyLockedError, PurchaseRowRejectedError } from '@starsgate/db';
import { ChainError } from '@starsgate/ton';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors';
import { exposedClientError } from './body-read-errors';
import { isDatabaseUnavailable } from './database-unavailable';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** How long a client should wait before retrying while Redis cannot be reached. */
const REDIS_RETRY_AFTER_SECONDS = 5;

/**
 * Redis cannot be reached (down, restarting, not yet up): ioredis gave up on the command after
 * its retries, or the connection was closed under it. The request was not served, through no
 * fault of the client's: 503 with Retry-After, never a 500.
 */
function isRedisUnavailable(error: unknown): boolean {
  return (
    error instanceof MaxRetriesPerRequestError || (error instanceof Error && error.message === 'Connection is closed.')
  );
}

/** Maps anything a handler throws to the one error body; a client mistake is never a 500. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isRedisUnavailable(error))
    return new AppError('SERVICE_UNAVAILABLE', { retryAfterSeconds: REDIS_RETRY_AFTER_SECONDS, cause: error });
  // The chain provider failed or refused a read (checkout payer, BOC verification): not the client's fault.
  if (error instanceof ChainError)
    return new AppError('SERVICE_UNAVAILABLE', {
      message: 'The chain provider could not be read; nothing was stored.',
      retryAfterSeconds: 2,
      cause: error,
    });
  // PostgreSQL restarting or unreachable: a retry with the same idempotency key is safe (a 202 is
  // only answered after the row's commit, and a repeat finds a row that did commit).
  if (isDatabaseUnavailable(error))
    return new AppError('SERVICE_UNAVAILABLE', {
      message: 'The database cannot be reached right now.',
      retryAfterSeconds: 2,
      cause: error,
    });
  if (error instanceof IdempotencyKeyLockedError) {
    return new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS', { retryAfterSeconds: 1 });
  }
  if (error instanceof PurchaseRowRejectedError) {
    return new AppError('VALIDATION_FAILED', {
      message: 'The purchase has a value that cannot be stored.',
      details: [{ field: 'body', message: 'has a value that cannot be stored' }],
    });
  }
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return new AppError('MALFORMED_JSON', { details: [{ field: 'body', message: 'is not valid JSON' }] });
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', { details: [{ field: 'body', message: 'exceeds the size limit' }] });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', {
        details: [{ field: 'Content-Type', message: 'charset or encoding is not supported' }],
      });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('VALIDATION_FAILED', {
        message: 'The request body could not be read.',
        details: [{ field: 'body', message: 'ended early or does not match its Content-Length' }],
      });
    default:
      return exposedClientError(error) ?? new AppError('INTERNAL_ERROR', { cause: error });
  }
}

export function sendError(req: Request, res: Response, appError: AppError): void {
  if (appError.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (appError.code === 'IDEMPOTENCY_KEY_REUSED') res.setHeader('x-should-retry', 'false');
  if (appError.code === 'IDEMPOTENCY_REQUEST_IN_PROGRESS') res.setHeader('x-should-retry', 'true');
  res.status(appError.status).json({
    code: appError.code,
    message: appError.message,
    details: appError.details,
    ...(appError.action ? { action: appError.action } : {}),
    ...(appError.retryAfterSeconds !== undefined ? { retry_after: appError.retryAfterSeconds } : {}),
    request_id: req.id,
  });
}

export function errorHandler() {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error);
    if (appError.status >= 500)
      req.log.error('request failed', { code: appError.code, error: appError.cause ?? error });
    else req.log.info('request rejected', { code: appError.code, details: appError.details });
    sendError(req, res, appError);
  };
}

export function notFound() {
  return (_req: Request, _res: Response, next: NextFunction): void => {
    next(new AppError('NOT_FOUND'));
  };
}
