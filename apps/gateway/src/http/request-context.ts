import { randomUUID } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import { annotateActiveSpan, type Logger } from '@starsgate/platform';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CHILD_LOGGER = Symbol('request logger');

/** Request id on every log line and in the `Request-Id` response header. */
export function requestContext(app: Express, logger: Logger) {
  // `req.log` is built on first use (most requests never log past the access line), by a getter on
  // the app's request prototype: one defined on each request object cost measurable CPU per request.
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [CHILD_LOGGER]?: Logger }): Logger {
      return (this[CHILD_LOGGER] ??= logger.child({ request_id: this.id }));
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.headers['request-id'] ?? req.headers['x-request-id'];
    const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('Request-Id', id);
    annotateActiveSpan({ 'starsgate.request_id': id });
    next();
  };
}
