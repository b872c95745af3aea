import { Address } from '@ton/core';
import { mnemonicNew } from '@ton/crypto';
import { randomBytes } from 'node:crypto';
import {
  createWalletContract,
  deriveKeyPair,
  formatAddress,
  resolveWalletOffline,
  v5r1Address,
  v5r1WalletId,
  walletAddress,
  WALLET_VERSIONS,
} from '../../src';

const PHRASE_12 = 'cook voyage document eight skate token alien guide drink uncle term abuse';
const V5R1_N0 = 'UQASomfWf2V7N46QrW4umfpARQBwKORp_z6I_8u2jUG29cYa';
const V4R2_N0 = 'UQADGkHaOHfStKdqJEwB916xGjQsSP25XahcJWomf-7pRELD';
const V3R2_N0 = 'UQCSLfopVQwxiV0DrgdIpWxCsD6HKVYKgx_09_Jtbd_qy5ah';
const V5R1_N0_TESTNET = '0QBY_bi0lbR4Ww6Tmfjf_dbaEsJ2Pm0VlMmQBl3Cm-ljKGDm';
const V5R1_N1 = 'UQD3CRdkxEJL89-0TvBLTon261m8ImL2ivGgQ_50OW-XhKpY';

describe('wallet contracts (public vectors)', () => {
  it('derives the V5R1/V4R2/V3R2 mainnet and V5R1 testnet addresses of account 0', async () => {
    const { publicKey } = await deriveKeyPair(PHRASE_12, 'bip39_12', 0);
    expect(formatAddress(createWalletContract('V5R1', publicKey, 'mainnet').address, 'mainnet').friendly).toBe(V5R1_N0);
    expect(formatAddress(createWalletContract('V4R2', publicKey, 'mainnet').address, 'mainnet').friendly).toBe(V4R2_N0);
    expect(formatAddress(createWalletContract('V3R2', publicKey, 'mainnet').address, 'mainnet').friendly).toBe(V3R2_N0);
    expect(formatAddress(createWalletContract('V5R1', publicKey, 'testnet').address, 'testnet').friendly).toBe(
      V5R1_N0_TESTNET,
    );
    // V3R2/V4R2 do not depend on the network.
    expect(createWalletContract('V4R2', publicKey, 'testnet').address.equals(Address.parse(V4R2_N0))).toBe(true);
    const n1 = await deriveKeyPair(PHRASE_12, 'bip39_12', 1);
    expect(formatAddress(createWalletContract('V5R1', n1.publicKey, 'mainnet').address, 'mainnet').friendly).toBe(
      V5R1_N1,
    );
  });

  it('computes the V5R1 wallet ids', () => {
    expect(v5r1WalletId('mainnet')).toBe(2147483409);
    expect(v5r1WalletId('testnet')).toBe(2147483645);
    const key = randomBytes(32);
    expect(createWalletContract('V5R1', key, 'testnet').walletId.networkGlobalId).toBe(-3);
  });
});

describe('resolveWalletOffline', () => {
  it('12 words + account_index → V5R1 at that index', async () => {
    const r = await resolveWalletOffline({ seed: PHRASE_12, account_index: 1 }, 'mainnet');
    expect(r.seedFormat).toBe('bip39_12');
    expect(r.accountIndex).toBe(1);
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]).toMatchObject({ version: 'V5R1' });
    expect(r.candidates[0]!.address.equals(Address.parse(V5R1_N1))).toBe(true);
    expect(r).not.toHaveProperty('secretKey');
  });

  it('12 words + wallet_address → scans to the index (raw and friendly forms)', async () => {
    const r = await resolveWalletOffline({ seed: PHRASE_12, wallet_address: V5R1_N1 }, 'mainnet');
    expect(r.accountIndex).toBe(1);
    const raw = Address.parse(V5R1_N0).toRawString();
    expect((await resolveWalletOffline({ seed: PHRASE_12, wallet_address: raw }, 'mainnet')).accountIndex).toBe(0);
    expect(
      (await resolveWalletOffline({ seed: PHRASE_12, wallet_address: V5R1_N0_TESTNET }, 'testnet')).accountIndex,
    ).toBe(0);
  });

  it('12 words + wallet_address finds index 100 (the last one scanned)', async () => {
    const { publicKey } = await deriveKeyPair(PHRASE_12, 'bip39_12', 100);
    const address = createWalletContract('V5R1', publicKey, 'mainnet').address.toString();
    const started = Date.now();
    expect((await resolveWalletOffline({ seed: PHRASE_12, wallet_address: address }, 'mainnet')).accountIndex).toBe(
      100,
    );
    console.log(`12-word address scan over 101 indices: ${Date.now() - started} ms`);
  });

  it('12 words + both → verifies the pair', async () => {
    expect(
      (await resolveWalletOffline({ seed: PHRASE_12, wallet_address: V5R1_N1, account_index: 1 }, 'mainnet'))
        .accountIndex,
    ).toBe(1);
    await expect(
      resolveWalletOffline({ seed: PHRASE_12, wallet_address: V5R1_N1, account_index: 0 }, 'mainnet'),
    ).rejects.toMatchObject({
      code: 'WALLET_ADDRESS_MISMATCH',
      details: [{ field: 'wallet_address' }],
    });
  });

  it('12 words + neither → WALLET_SELECTION_REQUIRED on seed', async () => {
    await expect(resolveWalletOffline({ seed: PHRASE_12 }, 'mainnet')).rejects.toMatchObject({
      code: 'WALLET_SELECTION_REQUIRED',
      status: 400,
      details: [{ field: 'seed' }],
    });
  });

  it('12 words + an address of no index (V4R2 of the same key, or another key) → WALLET_INDEX_NOT_FOUND', async () => {
    await expect(resolveWalletOffline({ seed: PHRASE_12, wallet_address: V4R2_N0 }, 'mainnet')).rejects.toMatchObject({
      code: 'WALLET_INDEX_NOT_FOUND',
      details: [{ field: 'wallet_address' }],
    });
    // Mainnet V5R1 address on a testnet resolver: valid raw address, but a different wallet id ⇒ not found.
    await expect(
      resolveWalletOffline({ seed: PHRASE_12, wallet_address: Address.parse(V5R1_N0).toRawString() }, 'testnet'),
    ).rejects.toMatchObject({
      code: 'WALLET_INDEX_NOT_FOUND',
    });
  });

  it('validates account_index and wallet_address before any derivation', async () => {
    for (const bad of [-1, 101, 1.5, Number.NaN, '1' as unknown as number]) {
      await expect(resolveWalletOffline({ seed: PHRASE_12, account_index: bad }, 'mainnet')).rejects.toMatchObject({
        code: 'INVALID_ACCOUNT_INDEX',
        details: [{ field: 'account_index' }],
      });
    }
    await expect(
      resolveWalletOffline({ seed: PHRASE_12, wallet_address: V5R1_N0_TESTNET }, 'mainnet'),
    ).rejects.toMatchObject({
      code: 'INVALID_WALLET_ADDRESS',
      details: [{ field: 'wallet_address' }],
    });
    // Seed errors surface as seed errors.
    await expect(resolveWalletOffline({ seed: 'not a seed', account_index: 0 }, 'mainnet')).rejects.toMatchObject({
      code: 'UNSUPPORTED_WALLET_SEED_FORMAT',
    });
    await expect(
      resolveWalletOffline({ seed: PHRASE_12.replace('abuse', 'about'), account_index: 0 }, 'mainnet'),
    ).rejects.toMatchObject({ code: 'INVALID_BIP39_SEED' });
  });

  it('24 words → the three candidates; account_index is ignored', async () => {
    const words = (await mnemonicNew(24)).join(' ');
    const r = await resolveWalletOffline({ seed: words, account_index: 7 }, 'testnet');
    expect(r.seedFormat).toBe('ton_24');
    expect(r.accountIndex).toBeNull();
    expect(r.candidates.map((c) => c.version)).toEqual(['V5R1', 'V4R2', 'V3R2']);
    const { publicKey } = await deriveKeyPair(words, 'ton_24');
    expect(r.publicKey.equals(publicKey)).toBe(true);
    expect(r.candidates[0]!.address.equals(createWalletContract('V5R1', publicKey, 'testnet').address)).toBe(true);
  });

  it('24 words / Base64 + wallet_address → must be one of the three', async () => {
    const seed = randomBytes(32).toString('base64');
    const { publicKey } = await deriveKeyPair(seed, 'base64_key');
    const v4 = createWalletContract('V4R2', publicKey, 'mainnet').address;
    const r = await resolveWalletOffline({ seed, wallet_address: v4.toString() }, 'mainnet');
    expect(r.seedFormat).toBe('base64_key');
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]!.version).toBe('V4R2');
    await expect(resolveWalletOffline({ seed, wallet_address: V5R1_N0 }, 'mainnet')).rejects.toMatchObject({
      code: 'WALLET_ADDRESS_MISMATCH',
      details: [{ field: 'wallet_address' }],
    });
    // Base64 without selection is fine (spec: the supplied wallet is used directly).
    expect((await resolveWalletOffline({ seed }, 'mainnet')).candidates).toHaveLength(3);
  });
});

describe('walletAddress', () => {
  it("equals @ton/ton's contract address for every version on both networks", () => {
    for (let i = 0; i < 5; i += 1) {
      const key = randomBytes(32);
      for (const version of WALLET_VERSIONS)
        for (const network of ['mainnet', 'testnet'] as const)
          expect(walletAddress(version, key, network).toRawString()).toBe(
            createWalletContract(version, key, network).address.toRawString(),
          );
    }
  });
});

describe('v5r1Address', () => {
  it('equals WalletContractV5R1.address on both networks', () => {
    for (let i = 0; i < 5; i += 1) {
      const key = randomBytes(32);
      for (const network of ['mainnet', 'testnet'] as const) {
        expect(v5r1Address(key, network).equals(createWalletContract('V5R1', key, network).address)).toBe(true);
      }
    }
  });
});
