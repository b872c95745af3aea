import { AppError } from '@starsgate/domain';

interface HttpError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
}

/**
 * A client error that the body parser or the router raised without one of the types errorHandler
 * knows: a body whose Content-Encoding does not decode (gzip or br with bad data, a zlib error
 * with status 400: http-errors marked `expose`), a path parameter that is no valid
 * percent-encoding (`/api/v1/purchases/%`: the router's URIError with status 400). They were
 * answered as 500 until the fuzzer sent them.
 */
export function exposedClientError(error: unknown): AppError | undefined {
  const candidate = error as HttpError | null;
  if (!candidate || typeof candidate !== 'object') return undefined;
  if (candidate.expose !== true && !(error instanceof URIError)) return undefined;
  const status = candidate.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (status === 404) return new AppError('NOT_FOUND');
  const decoding = typeof candidate.code === 'string' && /^(Z_|ERR_BROTLI|ERR__)/.test(candidate.code);
  return decoding
    ? new AppError('MALFORMED_JSON', {
        message: 'The request body does not decode with its Content-Encoding.',
        details: [{ field: 'Content-Encoding', message: 'the body does not decode with this encoding' }],
      })
    : error instanceof URIError
      ? new AppError('VALIDATION_FAILED', {
          message: 'The path is not a valid percent-encoding.',
          details: [{ field: 'path', message: 'has a malformed percent-encoding' }],
        })
      : new AppError('VALIDATION_FAILED', {
          message: 'The request could not be read.',
          details: [{ field: 'request', message: 'could not be read' }],
        });
}
