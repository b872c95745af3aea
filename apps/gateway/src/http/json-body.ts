import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError, clipEchoedText } from '@starsgate/domain';
import { toAppError } from './error-handler';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies only: a body in another media type is 415, not silently ignored. An empty POST
 * body parses as `{}` so that the schema names the missing fields.
 */
export function jsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: true, type: () => true });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    const { headers } = req;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    // The common exact spelling skips type-is's parse; anything else is judged by it.
    const plainJson = headers['content-type'] === 'application/json';
    if (hasBody && !plainJson && !req.is('application/json') && !req.is('application/*+json')) {
      return next(
        new AppError('UNSUPPORTED_MEDIA_TYPE', {
          details: [
            {
              field: 'Content-Type',
              message: `must be application/json (got ${clipEchoedText(req.get('content-type') ?? 'none')})`,
            },
          ],
        }),
      );
    }
    parse(req, res, (error?: unknown) => {
      // As its catalogue error: the parser's own message quotes the body (a seed's first characters),
      // and the error passed on here is what tracing records (docs/security.md, attack 23).
      if (error) return next(toAppError(error));
      if (req.body === undefined) req.body = {};
      next();
    });
  };
}
