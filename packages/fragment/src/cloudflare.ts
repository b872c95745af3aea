/**
 * Cloudflare in front of fragment.com (docs/fragment-protocol.md §12 and the 2026-11-28 evidence):
 * a challenge ("Just a moment…", managed challenge scripts) or a block page (error 1020, "Sorry,
 * you have been blocked") says nothing about the login. Both are the host's IP or fingerprint
 * being refused, so they are CLOUDFLARE (retry later, or use a proxy), never a dead session.
 */

export type CloudflareStop = 'challenge' | 'block';

const CHALLENGE_TEXT = /just a moment|challenge-platform|cf-chl|cf_chl|attention required! \| cloudflare/i;
// Checked first: a block page shares the challenge's "Attention Required! | Cloudflare" title.
const BLOCK_TEXT =
  /sorry, you have been blocked|error code:? ?10\d\d\b|cf-error-details|cloudflare ray id|cf-wrapper|you are unable to access/i;

/** What a page's text says of Cloudflare: a challenge, a block page, or neither. */
export function cloudflarePageKind(body: string): CloudflareStop | undefined {
  if (BLOCK_TEXT.test(body)) return 'block';
  if (CHALLENGE_TEXT.test(body)) return 'challenge';
  return undefined;
}

/**
 * Whether an HTTP answer is Cloudflare stopping the request: a 403 or 503 with Cloudflare's marks
 * (`server: cloudflare`, a `cf-ray` or `cf-mitigated` header, or the text of its challenge or
 * block page). Fragment's own refusals of a login come as a logged-out page or an "Access denied"
 * JSON answer, never as a Cloudflare-marked 403.
 */
export function cloudflareStop(
  status: number,
  header: (name: string) => string | null,
  body: string,
): CloudflareStop | undefined {
  if (status !== 403 && status !== 503) return undefined;
  const fromText = cloudflarePageKind(body);
  if (fromText !== undefined) return fromText;
  if ((header('cf-mitigated') ?? '').toLowerCase() === 'challenge') return 'challenge';
  const marked = /cloudflare/i.test(header('server') ?? '') || header('cf-ray') !== null;
  return marked ? 'block' : undefined;
}
