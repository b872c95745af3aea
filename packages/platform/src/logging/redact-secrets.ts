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
const WORD_RUN = /[A-Za-z]+(?:\s+[A-Za-z]+){11,}/g;
/** A canonical Base64 32-byte key is 43 characters and one `=`; also catch the url-safe spelling. */
const BASE64_KEY = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{43}=(?![A-Za-z0-9+/=_-])/g;

export const REDACTED = '[redacted]';

/**
 * Removes any run of 12 or more BIP39 words (12- and 24-word mnemonics share the wordlist)
 * and anything shaped like a Base64 32-byte key from free text.
 */
export function redactSecretText(text: string): string {
  const withoutMnemonics = text.replace(WORD_RUN, (run) => {
    const words = run.split(/\s+/);
    let inWordlist = 0;
    let best = 0;
    for (const word of words) {
      inWordlist = BIP39_WORDS.has(word.toLowerCase()) ? inWordlist + 1 : 0;
      best = Math.max(best, inWordlist);
    }
    return best >= 12 ? redactWordRuns(words) : run;
  });
  return withoutMnemonics.replace(BASE64_KEY, REDACTED);
}

function redactWordRuns(words: string[]): string {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 12) out.push(REDACTED);
    else out.push(...run);
    run = [];
  };
  for (const word of words) {
    if (BIP39_WORDS.has(word.toLowerCase())) run.push(word);
    else {
      flush();
      out.push(word);
    }
  }
  flush();
  return out.join(' ');
}

/** Deep copy of a log value with secret keys dropped and secret-shaped text redacted. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecretText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactSecretText(value.message),
      stack: value.stack ? redactSecretText(value.stack) : undefined,
    };
  }
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactSecrets(item, depth + 1);
  }
  return out;
}
