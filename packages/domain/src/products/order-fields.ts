/** Rules of the order fields every product shares (spec: limits table). */
export const USERNAME_PATTERN = '^@[A-Za-z0-9_]{1,32}$';
/** 1 to 128 printable ASCII characters (0x20 to 0x7E). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,128}$';
export const ACCOUNT_INDEX_MIN = 0;
export const ACCOUNT_INDEX_MAX = 100;

/** Telegram usernames are case-insensitive: compare them lower-cased. */
export function canonicalUsername(username: string): string {
  return username.toLowerCase();
}
