import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@starsgate/platform';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request id on every log line and in the `Request-Id` response header. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('request-id') ?? req.get('x-request-id');
    const id = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    // Built on first use: most requests never log past the access line.
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { configurable: true, get: () => (child ??= logger.child({ request_id: id })) });
    res.setHeader('Request-Id', id);
    next();
  };
}
