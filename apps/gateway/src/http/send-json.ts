import type { Response } from 'express';

/**
 * What `res.status(status).json(body)` sends (same headers and bytes), without Express's
 * per-call settings look-ups and Content-Type re-parsing: for the hot routes' small bodies.
 * Node itself leaves the body out of a HEAD response.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
