import {
  deriveEd25519Path,
  keyPairFromSeed as tonKeyPairFromSeed,
  mnemonicNew,
  mnemonicToPrivateKey,
  sign,
  signVerify,
} from '@ton/crypto';
import { mnemonicToSeedSync } from '@scure/bip39';
import { randomBytes } from 'node:crypto';
import { deriveKeyPair, derivePublicKey, keyPairFromSeed, seedKeyId, signEd25519 } from '../../src';
import { clearKeyCache, keyCacheContents, keyCacheSize } from '../../src/testing';

// The reference is @ton/crypto's own JavaScript (tweetnacl).

const PHRASE_12 = 'cook voyage document eight skate token alien guide drink uncle term abuse';

describe('deriveKeyPair', () => {
  beforeEach(() => clearKeyCache());

  it("bip39_12 follows m/44'/607'/N' (public WDK vectors)", async () => {
    const n0 = await deriveKeyPair(PHRASE_12, 'bip39_12', 0);
    expect(n0.publicKey.toString('hex')).toMatch(/^5b963f3b[0-9a-f]{50}059eb5$/);
    expect(n0.secretKey).toHaveLength(64);
    expect(n0.secretKey.subarray(32).equals(n0.publicKey)).toBe(true);
    const n1 = await deriveKeyPair(PHRASE_12, 'bip39_12', 1);
    expect(n1.publicKey.toString('hex')).toMatch(/^7d30d6ca[0-9a-f]{50}15362c$/);
    // Cross-check with @ton/crypto's SLIP-0010 over @scure/bip39's seed.
    for (const index of [0, 1, 7, 100]) {
      const child = await deriveEd25519Path(Buffer.from(mnemonicToSeedSync(PHRASE_12)), [44, 607, index]);
      const expected = tonKeyPairFromSeed(child);
      const ours = await deriveKeyPair(PHRASE_12, 'bip39_12', index);
      expect(ours.publicKey.equals(expected.publicKey)).toBe(true);
      expect(ours.secretKey.equals(expected.secretKey)).toBe(true);
    }
  });

  it('ton_24 equals @ton/crypto mnemonicToPrivateKey', async () => {
    for (let i = 0; i < 3; i += 1) {
      const words = await mnemonicNew(24);
      const expected = await mnemonicToPrivateKey(words);
      const ours = await deriveKeyPair(`  ${words.join('  ').toUpperCase()} `, 'ton_24');
      expect(ours.publicKey.equals(expected.publicKey)).toBe(true);
      expect(ours.secretKey.equals(expected.secretKey)).toBe(true);
    }
  });

  it('base64_key equals @ton/crypto keyPairFromSeed and ignores the account index', async () => {
    const seed = randomBytes(32);
    const expected = tonKeyPairFromSeed(seed);
    const ours = await deriveKeyPair(seed.toString('base64'), 'base64_key', 5);
    expect(ours.secretKey.equals(expected.secretKey)).toBe(true);
    expect(keyPairFromSeed(seed).publicKey.equals(expected.publicKey)).toBe(true);
  });

  it('returns copies: wiping a result does not poison the cache', async () => {
    const words = (await mnemonicNew(24)).join(' ');
    const first = await deriveKeyPair(words, 'ton_24');
    const reference = Buffer.from(first.secretKey);
    first.secretKey.fill(0);
    const second = await deriveKeyPair(words, 'ton_24');
    expect(second.secretKey.equals(reference)).toBe(true);
  });

  it('keys differ by case for Base64 (case-sensitive cache key)', async () => {
    const a = 'A'.repeat(42) + 'A=';
    const b = 'a'.repeat(42) + 'A=';
    const ka = await deriveKeyPair(a, 'base64_key');
    const kb = await deriveKeyPair(b, 'base64_key');
    expect(ka.publicKey.equals(kb.publicKey)).toBe(false);
  });

  it('rejects an account index outside 0..100 for bip39_12', async () => {
    await expect(deriveKeyPair(PHRASE_12, 'bip39_12', 101)).rejects.toMatchObject({ code: 'INVALID_ACCOUNT_INDEX' });
    await expect(deriveKeyPair(PHRASE_12, 'bip39_12', 1.5)).rejects.toMatchObject({ code: 'INVALID_ACCOUNT_INDEX' });
  });
});

describe('the key cache', () => {
  beforeEach(() => clearKeyCache());

  it('holds public keys only: a derivation for a signature leaves no secret behind', async () => {
    const words = (await mnemonicNew(24)).join(' ');
    const pair = await deriveKeyPair(words, 'ton_24');
    const secretSeed = Buffer.from(pair.secretKey.subarray(0, 32));
    pair.secretKey.fill(0);
    expect(keyCacheSize()).toBe(1);
    const publicKey = await derivePublicKey(words, 'ton_24');
    expect(publicKey.equals(pair.publicKey)).toBe(true);
    for (const held of keyCacheContents()) {
      expect(held).toHaveLength(32);
      expect(held.equals(secretSeed)).toBe(false);
    }
    // The next signature derives again, to the same key.
    const again = await deriveKeyPair(words, 'ton_24');
    expect(again.secretKey.subarray(0, 32).equals(secretSeed)).toBe(true);
  });

  it('derivePublicKey serves a repeated seed from the cache and shares concurrent derivations', async () => {
    const words = (await mnemonicNew(24)).join(' ');
    const [a, b] = await Promise.all([derivePublicKey(words, 'ton_24'), derivePublicKey(words, 'ton_24')]);
    expect(a.equals(b)).toBe(true);
    expect(keyCacheSize()).toBe(1);
    a.fill(0);
    expect((await derivePublicKey(words, 'ton_24')).equals(b)).toBe(true);
  });

  it('seedKeyId names the key without deriving it: one id per spelling of a mnemonic, one per account', () => {
    expect(seedKeyId(`  ${PHRASE_12.toUpperCase()} `, 'bip39_12', 3)).toBe(seedKeyId(PHRASE_12, 'bip39_12', 3));
    expect(seedKeyId(PHRASE_12, 'bip39_12', 3)).not.toBe(seedKeyId(PHRASE_12, 'bip39_12', 4));
    const base64 = randomBytes(32).toString('base64');
    expect(seedKeyId(base64, 'base64_key', 7)).toBe(seedKeyId(base64, 'base64_key', 0));
    expect(seedKeyId(base64.toLowerCase(), 'base64_key')).not.toBe(seedKeyId(base64, 'base64_key'));
  });
});

describe('signEd25519', () => {
  it('gives the same deterministic signature as @ton/crypto (tweetnacl) and verifies', () => {
    for (let i = 0; i < 20; i += 1) {
      const pair = tonKeyPairFromSeed(randomBytes(32));
      const data = randomBytes(32);
      const signature = signEd25519(data, pair.secretKey);
      expect(signature.equals(sign(data, pair.secretKey))).toBe(true);
      expect(signVerify(data, signature, pair.publicKey)).toBe(true);
    }
  });

  it('refuses a key that is not seed ‖ public key', () => {
    expect(() => signEd25519(randomBytes(32), randomBytes(32))).toThrow(/64 bytes/);
  });
});
