import { AppError } from '@starsgate/domain';
import { validateMnemonic } from '@scure/bip39';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english';
import { mnemonicValidate } from '@ton/crypto';

/**
 * How a wallet secret is written:
 * - `bip39_12`: 12-word BIP39 mnemonic (SLIP-0010 ed25519, `m/44'/607'/{account_index}'`);
 * - `ton_24`: 24-word TON-native mnemonic (tonlib scheme, one key);
 * - `base64_key`: canonical Base64 of a 32-byte ed25519 private seed.
 */
export type SeedFormat = 'bip39_12' | 'ton_24' | 'base64_key';

/** Exactly 43 Base64 characters and one `=`: the only spelling of 32 bytes we accept. */
const CANONICAL_BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

/** Lower-cased words separated by single spaces (the form both mnemonic schemes hash). */
export function normalizeMnemonic(seed: string): string[] {
  const text = seed.trim().toLowerCase();
  return text.length === 0 ? [] : text.split(/\s+/);
}

/** The 32 private-key bytes of a canonical Base64 key, or null when `text` is not one. */
export function decodeCanonicalBase64Key(text: string): Buffer | null {
  if (!CANONICAL_BASE64_32.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== text) {
    bytes.fill(0);
    return null;
  }
  return bytes;
}

function unsupported(message: string): AppError {
  return AppError.field('UNSUPPORTED_WALLET_SEED_FORMAT', 'seed', message);
}

/**
 * Classify a wallet secret offline (cheap: at most one 390-iteration PBKDF2 for 24 words, run off
 * the event loop by node:crypto). Error messages describe the shape only, never the secret.
 *
 * - one token matching `^[A-Za-z0-9+/]{43}=$` that re-encodes identically ⇒ `base64_key`;
 * - 12 words ⇒ BIP39 only (wordlist + checksum), else `INVALID_BIP39_SEED`;
 * - 24 words ⇒ TON-native only (`mnemonicValidate`), else `UNSUPPORTED_WALLET_SEED_FORMAT`.
 *   A 24-word phrase is never read as BIP39: the API has no mnemonic-type field and the spec calls
 *   24-word seeds "legacy" (TON-native) ones.
 */
export async function classifySeed(seed: string): Promise<SeedFormat> {
  if (typeof seed !== 'string') throw unsupported('The seed must be a string.');
  const trimmed = seed.trim();
  if (trimmed.length > 0 && !/\s/.test(trimmed)) {
    const key = decodeCanonicalBase64Key(trimmed);
    if (key) {
      key.fill(0);
      return 'base64_key';
    }
    throw unsupported(
      'The seed is one token but not a canonical Base64 32-byte key (43 characters from A-Z a-z 0-9 + / then one "="), nor a 12- or 24-word mnemonic.',
    );
  }
  const words = normalizeMnemonic(trimmed);
  if (words.length === 12) {
    if (!validateMnemonic(words.join(' '), englishWordlist)) {
      throw AppError.field(
        'INVALID_BIP39_SEED',
        'seed',
        'The 12-word seed is not a valid BIP39 mnemonic (unknown word or bad checksum).',
      );
    }
    return 'bip39_12';
  }
  if (words.length === 24) {
    if (!(await mnemonicValidate(words))) {
      throw unsupported('The 24-word seed is not a valid TON mnemonic (unknown word or not a TON seed).');
    }
    return 'ton_24';
  }
  throw unsupported(`The seed has ${words.length} words; send 12 (BIP39) or 24 (TON) words, or a Base64 32-byte key.`);
}
