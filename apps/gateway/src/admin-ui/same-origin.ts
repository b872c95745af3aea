import type { Request } from 'express';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isUnsafeMethod = (req: Request): boolean => UNSAFE_METHODS.has(req.method);

/**
 * Whether the browser says this request comes from a page of this very origin: `Sec-Fetch-Site`
 * when sent, else `Origin` compared with the request's own scheme and host. Browsers send one of
 * them on every state-changing fetch or form post, so their absence is refused too.
 */
export function fromSameOrigin(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = req.get('origin');
  if (origin === undefined) return false;
  return origin === `${req.protocol}://${req.get('host') ?? ''}`;
}
