/** Admin tokens are bearer credentials: long enough that guessing within the failure limits is hopeless. */
export const ADMIN_TOKEN_MIN_CHARS = 32;

/** Below this many bits by the character-frequency estimate, a token is not random enough. */
const ADMIN_TOKEN_MIN_ESTIMATED_BITS = 80;

/** Shannon entropy of the token's own character frequencies, times its length: 0 for `xxxx…`. */
function estimatedBits(token: string): number {
  const counts = new Map<string, number>();
  for (const character of token) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...token].length;
  let bitsPerCharacter = 0;
  for (const count of counts.values()) bitsPerCharacter -= (count / length) * Math.log2(count / length);
  return bitsPerCharacter * length;
}

/** `abcdabcdabcd…`: a shorter string repeated, however varied the short string is. */
function repeatsAShorterString(token: string): boolean {
  for (let period = 1; period <= token.length / 2; period += 1)
    if (token.length % period === 0 && token.slice(0, period).repeat(token.length / period) === token) return true;
  return false;
}

/**
 * Why `token` is too weak to be an admin token, or undefined (docs/security.md, attacks 3 and 26).
 * A cheap screen against the obvious (short, one character, few characters, a repeated pattern),
 * not a proof of randomness. Of 100 000 random tokens of 32 hex digits (128 bits) the lowest scored
 * 93 bits; `starsgate admin-token` and `openssl rand -base64 32` score far more.
 */
export function adminTokenWeakness(token: string): string | undefined {
  if (token.length < ADMIN_TOKEN_MIN_CHARS) return `shorter than ${ADMIN_TOKEN_MIN_CHARS} characters`;
  if (repeatsAShorterString(token)) return 'a shorter string repeated';
  if (estimatedBits(token) < ADMIN_TOKEN_MIN_ESTIMATED_BITS) return 'too few different characters to be random';
  return undefined;
}
