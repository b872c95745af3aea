import { wordlist } from '@scure/bip39/wordlists/english';

/** Keys whose values are credentials wherever they appear in a log entry. */
const SECRET_KEYS = new Set([
  'seed',
  'mnemonic',
  'privatekey',
  'private_key',
  'secretkey',
  'secret_key',
  'secret',
  'password',
  'authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'x-api-key',
]);

const BIP39_WORDS = new Set(wordlist);
const MNEMONIC_MIN_WORDS = 12;
/** Every match is one maximal run of letters: the scan below is one pass, never a backtrack. */
const LETTER_RUN = /[A-Za-z]+/g;
const WHITESPACE_ONLY = /^\s+$/;
/** A canonical Base64 32-byte key is 43 characters and one `=`; also catch the url-safe spelling. */
const BASE64_KEY = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{43}=(?![A-Za-z0-9+/=_-])/g;

/**
 * The longest string a log entry keeps. A client controls field names, header values and
 * messages that end up in logs; an entry stays small whatever it sent (docs/security.md, attack 1).
 */
export const LOG_STRING_MAX_CHARS = 2_048;

export const REDACTED = '[redacted]';

/** Cuts a string to `max` characters and says how much was cut. */
export function clipText(text: string, max = LOG_STRING_MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} more characters]`;
}

/**
 * Removes any run of 12 or more BIP39 words separated by whitespace (12- and 24-word mnemonics
 * share the wordlist) and anything shaped like a Base64 32-byte key from free text. Linear in the
 * text's length: each letter run is looked at once.
 */
export function redactSecretText(text: string): string {
  return redactMnemonics(text).replace(BASE64_KEY, REDACTED);
}

function redactMnemonics(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  let runStart = -1;
  let runEnd = -1;
  let runWords = 0;
  const closeRun = (): void => {
    if (runWords >= MNEMONIC_MIN_WORDS) {
      out += text.slice(copiedUpTo, runStart) + REDACTED;
      copiedUpTo = runEnd;
    }
    runWords = 0;
  };
  for (const match of text.matchAll(LETTER_RUN)) {
    const word = match[0];
    const start = match.index;
    // Wordlist words are at most 8 letters, so the lookup of a long run is not worth its lowercasing.
    const inWordlist = word.length <= 8 && BIP39_WORDS.has(word.toLowerCase());
    if (!inWordlist) {
      closeRun();
      continue;
    }
    const continuesRun = runWords > 0 && WHITESPACE_ONLY.test(text.slice(runEnd, start));
    if (!continuesRun) {
      closeRun();
      runStart = start;
    }
    runWords += 1;
    runEnd = start + word.length;
  }
  closeRun();
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

/** Deep copy of a log value with secret keys dropped, secret-shaped text redacted and long strings clipped. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clipText(redactSecretText(value));
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) {
    return {
      name: value.name,
      message: clipText(redactSecretText(value.message)),
      stack: value.stack ? clipText(redactSecretText(value.stack), LOG_STRING_MAX_CHARS * 4) : undefined,
    };
  }
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[clipText(key, 256)] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactSecrets(item, depth + 1);
  }
  return out;
}
