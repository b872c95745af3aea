import { AppError } from '@starsgate/domain';
import { mnemonicNew, mnemonicValidate } from '@ton/crypto';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { randomBytes } from 'node:crypto';
import { classifySeed } from '../../src';

const PHRASE_12 = 'cook voyage document eight skate token alien guide drink uncle term abuse';

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; field?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const e = error as AppError;
    return { code: e.code, field: e.details[0]?.field, message: e.message };
  }
  throw new Error('expected a rejection');
}

describe('classifySeed', () => {
  it('reads a 12-word BIP39 phrase, tolerating case and whitespace', async () => {
    expect(await classifySeed(PHRASE_12)).toBe('bip39_12');
    expect(await classifySeed(`  ${PHRASE_12.toUpperCase().replace(/ /g, ' \t\n ')}  `)).toBe('bip39_12');
  });

  it('rejects a 12-word phrase with a bad checksum or unknown word as INVALID_BIP39_SEED, without echoing it', async () => {
    const badChecksum = PHRASE_12.replace('abuse', 'about');
    expect(validateMnemonic(badChecksum, wordlist)).toBe(false);
    const r = await codeOf(classifySeed(badChecksum));
    expect(r).toMatchObject({ code: 'INVALID_BIP39_SEED', field: 'seed' });
    expect(r.message).not.toMatch(/cook|voyage|about/);
    expect((await codeOf(classifySeed(PHRASE_12.replace('cook', 'cookie')))).code).toBe('INVALID_BIP39_SEED');
  });

  it('reads a 24-word TON mnemonic and rejects a 24-word phrase that is not a TON seed', async () => {
    const words = await mnemonicNew(24);
    expect(await classifySeed(words.join(' '))).toBe('ton_24');
    // A BIP39 24-word phrase fails TON validation ~255/256 times; find one that does.
    let bip39Only = generateMnemonic(wordlist, 256);
    while (await mnemonicValidate(bip39Only.split(' '))) bip39Only = generateMnemonic(wordlist, 256);
    const r = await codeOf(classifySeed(bip39Only));
    expect(r).toMatchObject({ code: 'UNSUPPORTED_WALLET_SEED_FORMAT', field: 'seed' });
    expect(r.message).not.toContain(bip39Only.split(' ')[0] as string);
  });

  it('accepts only canonical Base64 of exactly 32 bytes', async () => {
    const key = randomBytes(32).toString('base64');
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await classifySeed(key)).toBe('base64_key');
    expect(await classifySeed(`  ${key}\n`)).toBe('base64_key');

    const rejected = [
      key.slice(0, 43), // padding missing
      `${key}=`, // extra padding
      key.replace(/=$/, '').replace(/[+]/g, '-').replace(/[/]/g, '_'), // url-safe alphabet, unpadded
      '-'.repeat(43) + '=', // url-safe characters with padding
      randomBytes(33).toString('base64'), // 33 bytes
      randomBytes(31).toString('base64'), // 31 bytes
      randomBytes(64).toString('base64'), // 64-byte secret key form
      `${key.slice(0, 20)} ${key.slice(20)}`, // split by a space
    ];
    for (const text of rejected) {
      const r = await codeOf(classifySeed(text));
      expect(r).toMatchObject({ code: 'UNSUPPORTED_WALLET_SEED_FORMAT', field: 'seed' });
      expect(r.message).not.toContain(text);
    }
  });

  it('rejects a non-canonical Base64 spelling whose trailing bits are not zero', async () => {
    const bytes = Buffer.alloc(32, 7);
    const canonical = bytes.toString('base64'); // ends with "c=" for 0x07 (last sextet bits 0111|00)
    const lastChar = canonical[42] as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const tweaked = canonical.slice(0, 42) + alphabet[alphabet.indexOf(lastChar) + 1] + '=';
    expect(Buffer.from(tweaked, 'base64').equals(bytes)).toBe(true); // Node decodes both to the same bytes
    expect(await classifySeed(canonical)).toBe('base64_key');
    expect((await codeOf(classifySeed(tweaked))).code).toBe('UNSUPPORTED_WALLET_SEED_FORMAT');
  });

  it('rejects other word counts and empty input', async () => {
    for (const text of [
      '',
      '   ',
      PHRASE_12.split(' ').slice(0, 11).join(' '),
      `${PHRASE_12} ${PHRASE_12} cook`,
      'abandon',
    ]) {
      expect((await codeOf(classifySeed(text))).code).toBe('UNSUPPORTED_WALLET_SEED_FORMAT');
    }
  });
});
