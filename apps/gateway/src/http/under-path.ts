import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs `handler` for requests whose path is `prefix` or below it and skips it for the rest, as
 * `app.use(prefix, handler)` matches (case-insensitive, whole path segments), but without the
 * router rewriting and re-parsing `req.url` around the handler on every request.
 */
export function underPath(prefix: string, handler: RequestHandler): RequestHandler {
  const lowerPrefix = prefix.toLowerCase();
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const matches =
      path.length >= prefix.length &&
      path.slice(0, prefix.length).toLowerCase() === lowerPrefix &&
      (path.length === prefix.length || path[prefix.length] === '/');
    if (!matches) return next();
    const returned: unknown = handler(req, res, next);
    if (returned instanceof Promise) returned.catch(next);
  };
}
