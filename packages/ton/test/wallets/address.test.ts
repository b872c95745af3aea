import { Address } from '@ton/core';
import { AppError } from '@starsgate/domain';
import { formatAddress, parseWalletAddress, parseWalletAddressDetailed } from '../../src';

const V5R1_MAINNET = 'UQASomfWf2V7N46QrW4umfpARQBwKORp_z6I_8u2jUG29cYa';
const addr = Address.parse(V5R1_MAINNET);
const RAW = addr.toRawString();

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a throw');
}

describe('parseWalletAddress', () => {
  const forms = {
    bounceableUrlSafe: addr.toString({ bounceable: true, urlSafe: true }),
    bounceableStd: addr.toString({ bounceable: true, urlSafe: false }),
    nonBounceableUrlSafe: addr.toString({ bounceable: false, urlSafe: true }),
    nonBounceableStd: addr.toString({ bounceable: false, urlSafe: false }),
  };

  it.each(Object.entries(forms))('accepts mainnet %s', (_name, text) => {
    expect(parseWalletAddress(text, 'mainnet').equals(addr)).toBe(true);
  });

  it('keeps the user bounce flag', () => {
    expect(parseWalletAddressDetailed(forms.bounceableUrlSafe, 'mainnet').bounceable).toBe(true);
    expect(parseWalletAddressDetailed(forms.nonBounceableStd, 'mainnet').bounceable).toBe(false);
    expect(parseWalletAddressDetailed(RAW, 'mainnet')).toMatchObject({ form: 'raw', bounceable: null });
  });

  it('accepts raw 0:hex on both networks, any hex case, trimmed', () => {
    expect(parseWalletAddress(RAW, 'mainnet').equals(addr)).toBe(true);
    expect(parseWalletAddress(` ${RAW.toUpperCase()} `, 'testnet').equals(addr)).toBe(true);
  });

  it('accepts testOnly forms on testnet only, naming the network', () => {
    const testForm = addr.toString({ bounceable: false, testOnly: true, urlSafe: true });
    expect(testForm.startsWith('0Q')).toBe(true);
    expect(parseWalletAddress(testForm, 'testnet').equals(addr)).toBe(true);
    expect(parseWalletAddress(addr.toString({ bounceable: true, testOnly: true }), 'testnet').equals(addr)).toBe(true);

    const onMainnet = errorOf(() => parseWalletAddress(testForm, 'mainnet'));
    expect(onMainnet.code).toBe('INVALID_WALLET_ADDRESS');
    expect(onMainnet.status).toBe(400);
    expect(onMainnet.message).toMatch(/testnet/);
    expect(onMainnet.details).toEqual([{ field: 'wallet_address', message: onMainnet.message }]);

    const onTestnet = errorOf(() => parseWalletAddress(forms.nonBounceableUrlSafe, 'testnet', 'payer_address'));
    expect(onTestnet.message).toMatch(/mainnet/);
    expect(onTestnet.details[0]?.field).toBe('payer_address');
  });

  it('rejects workchains other than 0 (raw and friendly)', () => {
    for (const wc of [-1, 5]) {
      const other = new Address(wc, addr.hash);
      expect(errorOf(() => parseWalletAddress(other.toRawString(), 'mainnet')).message).toMatch(/workchain/);
      expect(errorOf(() => parseWalletAddress(other.toString(), 'mainnet')).message).toMatch(/workchain/);
    }
  });

  it('rejects a bad CRC, wrong lengths, junk and non-strings', () => {
    const last = V5R1_MAINNET.at(-1) === 'a' ? 'b' : 'a';
    const badCrc = V5R1_MAINNET.slice(0, -1) + last;
    for (const text of [
      badCrc,
      V5R1_MAINNET.slice(1),
      `${V5R1_MAINNET}A`,
      `0:${'ab'.repeat(31)}`,
      `0x${RAW.slice(2)}`,
      '',
      'hello',
      `${RAW}:0`,
    ]) {
      expect(errorOf(() => parseWalletAddress(text, 'mainnet')).code).toBe('INVALID_WALLET_ADDRESS');
    }
    expect(errorOf(() => parseWalletAddress(42 as unknown as string, 'mainnet')).code).toBe('INVALID_WALLET_ADDRESS');
  });
});

describe('formatAddress', () => {
  it('gives non-bounceable url-safe friendly (testOnly on testnet) and lowercase raw', () => {
    expect(formatAddress(addr, 'mainnet')).toEqual({ friendly: V5R1_MAINNET, raw: RAW });
    const testnet = formatAddress(addr, 'testnet');
    expect(testnet.friendly.startsWith('0Q')).toBe(true);
    expect(Address.parseFriendly(testnet.friendly)).toMatchObject({ isBounceable: false, isTestOnly: true });
    expect(RAW).toMatch(/^0:[0-9a-f]{64}$/);
  });
});
