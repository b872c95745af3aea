import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'starsgate_admin';
const COOKIE_PATH = '/admin';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** `Secure` everywhere except plain HTTP on loopback (local development, the browser test). */
function secure(req: Request): boolean {
  return req.secure || !LOOPBACK_HOSTS.has(req.hostname);
}

export function readSessionCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === SESSION_COOKIE) return part.slice(index + 1).trim() || undefined;
  }
  return undefined;
}

export function setSessionCookie(req: Request, res: Response, id: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, id, {
    httpOnly: true,
    secure: secure(req),
    sameSite: 'strict',
    path: COOKIE_PATH,
    maxAge: maxAgeMs,
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: secure(req), sameSite: 'strict', path: COOKIE_PATH });
}
