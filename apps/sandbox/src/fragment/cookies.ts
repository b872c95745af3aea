import type { Response } from 'express';

/** Parses a `Cookie` request header (last value wins, values URI-decoded when possible). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}

/**
 * Sets a Fragment-style cookie. `path=/` like fragment.com; no `Secure` so that
 * plain-http sandbox clients (and cookie jars) send it back.
 */
export function setCookie(res: Response, name: string, value: string, maxAgeSeconds = 30 * 24 * 3600): void {
  const expires = new Date(Date.now() + maxAgeSeconds * 1000).toUTCString();
  res.append(
    'Set-Cookie',
    `${name}=${value}; expires=${expires}; Max-Age=${maxAgeSeconds}; path=/; samesite=None; HttpOnly`,
  );
}
