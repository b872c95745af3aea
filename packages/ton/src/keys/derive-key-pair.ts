import { createHmac } from 'node:crypto';
import { AppError } from '@starsgate/domain';
import { decodeCanonicalBase64Key, normalizeMnemonic, type SeedFormat } from './seed-format';
import { keyPairFromSeed, type WalletKeyPair } from './ed25519';
import { pbkdf2Sha512 } from './pbkdf2-pool';
import { cacheKey, getCachedPublicKey, putCachedPublicKey } from './key-cache';

export const MAX_ACCOUNT_INDEX = 100;
const TON_PBKDF2_ITERATIONS = 100_000;
const BIP39_PBKDF2_ITERATIONS = 2048;
const HARDENED = 0x80000000;

/** Throws INVALID_ACCOUNT_INDEX unless `value` is an integer from 0 to 100. */
export function assertAccountIndex(value: unknown, field = 'account_index'): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_ACCOUNT_INDEX) {
    throw AppError.field('INVALID_ACCOUNT_INDEX', field, 'account_index must be an integer from 0 to 100.');
  }
}

/** tonlib: entropy = HMAC-SHA512(words joined by spaces, ""), seed = PBKDF2(entropy, "TON default seed", 100 000). */
async function tonMnemonicPrivateSeed(words: string[]): Promise<Buffer> {
  const entropy = createHmac('sha512', words.join(' ')).update('').digest();
  try {
    const seed = await pbkdf2Sha512(entropy, Buffer.from('TON default seed'), TON_PBKDF2_ITERATIONS);
    const privateSeed = Buffer.from(seed.subarray(0, 32));
    seed.fill(0);
    return privateSeed;
  } finally {
    entropy.fill(0);
  }
}

/** BIP39 seed: PBKDF2-HMAC-SHA512(NFKD(phrase), "mnemonic", 2048), no passphrase. */
export async function bip39Seed(words: string[]): Promise<Buffer> {
  const phrase = Buffer.from(words.join(' ').normalize('NFKD'), 'utf8');
  try {
    return await pbkdf2Sha512(phrase, Buffer.from('mnemonic'), BIP39_PBKDF2_ITERATIONS);
  } finally {
    phrase.fill(0);
  }
}

/** SLIP-0010 ed25519, hardened path m/44'/607'/{index}' → 32-byte private seed. */
export function slip10TonAccountSeed(bip39SeedBytes: Buffer, accountIndex: number): Buffer {
  let I = createHmac('sha512', 'ed25519 seed').update(bip39SeedBytes).digest();
  for (const index of [44, 607, accountIndex]) {
    const data = Buffer.alloc(37);
    I.copy(data, 1, 0, 32);
    data.writeUInt32BE(index + HARDENED, 33);
    const next = createHmac('sha512', I.subarray(32)).update(data).digest();
    data.fill(0);
    I.fill(0);
    I = next;
  }
  const key = Buffer.from(I.subarray(0, 32));
  I.fill(0);
  return key;
}

/** Key pair of one BIP39 account from an already computed BIP39 seed (cheap: HMACs + one ed25519). */
export function bip39AccountKeyPair(bip39SeedBytes: Buffer, accountIndex: number): WalletKeyPair {
  const child = slip10TonAccountSeed(bip39SeedBytes, accountIndex);
  try {
    return keyPairFromSeed(child);
  } finally {
    child.fill(0);
  }
}

const publicInFlight = new Map<string, Promise<Buffer>>();

async function deriveUncached(seed: string, format: SeedFormat, accountIndex: number): Promise<WalletKeyPair> {
  switch (format) {
    case 'base64_key': {
      const bytes = decodeCanonicalBase64Key(seed.trim());
      if (!bytes)
        throw AppError.field(
          'UNSUPPORTED_WALLET_SEED_FORMAT',
          'seed',
          'The seed is not a canonical Base64 32-byte key.',
        );
      try {
        return keyPairFromSeed(bytes);
      } finally {
        bytes.fill(0);
      }
    }
    case 'ton_24': {
      const words = normalizeMnemonic(seed);
      if (words.length !== 24)
        throw AppError.field('UNSUPPORTED_WALLET_SEED_FORMAT', 'seed', 'A TON mnemonic has exactly 24 words.');
      const privateSeed = await tonMnemonicPrivateSeed(words);
      try {
        return keyPairFromSeed(privateSeed);
      } finally {
        privateSeed.fill(0);
      }
    }
    case 'bip39_12': {
      const words = normalizeMnemonic(seed);
      if (words.length !== 12)
        throw AppError.field('INVALID_BIP39_SEED', 'seed', 'A BIP39 seed here has exactly 12 words.');
      const master = await bip39Seed(words);
      try {
        return bip39AccountKeyPair(master, accountIndex);
      } finally {
        master.fill(0);
      }
    }
    default:
      throw AppError.field('UNSUPPORTED_WALLET_SEED_FORMAT', 'seed', 'Unknown seed format.');
  }
}

/** The seed as derivation reads it, with the inputs that select its key. */
function canonicalSelection(seed: string, format: SeedFormat, accountIndex: number): string[] {
  const index = format === 'bip39_12' ? accountIndex : 0;
  // Base64 is case-sensitive; mnemonics are not.
  const canonical = format === 'base64_key' ? seed.trim() : normalizeMnemonic(seed).join(' ');
  return [format, String(index), canonical];
}

/**
 * An identifier of the key a seed selects, without deriving it: a keyed hash (per-process key) of
 * the canonical seed, format and account index. Equal identifiers mean the same key, so a batch
 * derives its key once however many members share the seed.
 */
export function seedKeyId(seed: string, format: SeedFormat, accountIndex = 0): string {
  return cacheKey(canonicalSelection(seed, format, accountIndex));
}

/**
 * Derive the ed25519 key pair of a classified seed, for a signature. The PBKDF2 work (100 000
 * iterations for `ton_24`, 2 048 for `bip39_12`) runs on libuv's thread pool, never on the event
 * loop. `accountIndex` (default 0) selects `m/44'/607'/{accountIndex}'` for `bip39_12` and is
 * ignored by the other formats (they hold a single key). Nothing secret is kept: every call
 * derives afresh (only the public key is cached, see key-cache.ts), and the caller owns and must
 * wipe the returned secret key once it has signed. Needing only the public key: derivePublicKey.
 */
export async function deriveKeyPair(seed: string, format: SeedFormat, accountIndex = 0): Promise<WalletKeyPair> {
  const index = format === 'bip39_12' ? accountIndex : 0;
  if (format === 'bip39_12') assertAccountIndex(index);
  const pair = await deriveUncached(seed, format, index);
  putCachedPublicKey(seedKeyId(seed, format, index), pair.publicKey);
  return pair;
}

/**
 * The public key of a classified seed (what resolving a wallet needs), cached in memory: the
 * secret half is wiped as soon as it is derived. Concurrent calls for one seed share a derivation.
 */
export async function derivePublicKey(seed: string, format: SeedFormat, accountIndex = 0): Promise<Buffer> {
  const index = format === 'bip39_12' ? accountIndex : 0;
  if (format === 'bip39_12') assertAccountIndex(index);
  const key = seedKeyId(seed, format, index);
  const cached = getCachedPublicKey(key);
  if (cached) return cached;
  let pending = publicInFlight.get(key);
  if (!pending) {
    pending = deriveUncached(seed, format, index)
      .then((pair) => {
        pair.secretKey.fill(0);
        putCachedPublicKey(key, pair.publicKey);
        return pair.publicKey;
      })
      .finally(() => publicInFlight.delete(key));
    publicInFlight.set(key, pending);
  }
  return Buffer.from(await pending);
}
