import request from 'supertest';
import type { DemoWallet } from '@starsgate/sandbox';
import { useResolveGateway } from './support/resolve-gateway';
import { createTestGateway, BIP39_PHRASE, BIP39_INDEX0_V5R1, BIP39_INDEX1_V5R1 } from './support/test-gateway';

const suite = useResolveGateway();
const { resolve } = suite;
let demo: Record<DemoWallet['id'], DemoWallet>;

beforeAll(() => {
  demo = Object.fromEntries(suite.sandbox.demoWallets.map((wallet) => [wallet.id, wallet])) as typeof demo;
});

describe('POST /api/v1/wallets/resolve (spec resolution table)', () => {
  it('12-word seed + account_index → the V5R1 account at that index', async () => {
    const response = await resolve({ seed: BIP39_PHRASE, account_index: 1 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      account_index: 1,
      wallet_version: 'V5R1',
      wallet_address: BIP39_INDEX1_V5R1,
      seed_format: 'bip39_12',
      network: 'mainnet',
      balances: { gram: '0', usdt: '0' },
    });
    expect(response.body.raw_address).toMatch(/^0:[0-9a-f]{64}$/);
    expect(response.body.publicKey).toBeUndefined();
  });

  it('12-word seed + wallet_address → the matching derived wallet is found', async () => {
    const response = await resolve({ seed: BIP39_PHRASE, wallet_address: BIP39_INDEX1_V5R1 });
    expect(response.status).toBe(200);
    expect(response.body.account_index).toBe(1);
  });

  it('12-word seed + both → verified pair; a wrong pair is WALLET_ADDRESS_MISMATCH', async () => {
    expect((await resolve({ seed: BIP39_PHRASE, wallet_address: BIP39_INDEX0_V5R1, account_index: 0 })).status).toBe(
      200,
    );
    const mismatch = await resolve({ seed: BIP39_PHRASE, wallet_address: BIP39_INDEX0_V5R1, account_index: 1 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({
      code: 'WALLET_ADDRESS_MISMATCH',
      action: 'Correct the address/index pair or resolve again.',
    });
  });

  it('12-word seed alone → WALLET_SELECTION_REQUIRED', async () => {
    const response = await resolve({ seed: BIP39_PHRASE });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'WALLET_SELECTION_REQUIRED',
      action: 'Add wallet_address or account_index.',
    });
  });

  it('funded demo 12-word account reports exact balances', async () => {
    const wallet = demo['bip39-0'];
    const response = await resolve({ seed: wallet.seed, account_index: 0 });
    expect(response.status).toBe(200);
    expect(response.body.wallet_address).toBe(wallet.address);
    expect(response.body.balances).toEqual({ gram: wallet.funding.gram, usdt: wallet.funding.usdt });
  });

  it('24-word seed → the deployed contract (V4R2 here) is used directly', async () => {
    const wallet = demo['ton24-v4r2'];
    const response = await resolve({ seed: wallet.seed });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      seed_format: 'ton_24',
      wallet_version: 'V4R2',
      version_source: 'deployed',
      wallet_address: wallet.address,
      account_index: 0,
    });
  });

  it('Base64 key → used directly; an address of another key is WALLET_ADDRESS_MISMATCH', async () => {
    const wallet = demo['base64-v5r1'];
    const response = await resolve({ seed: wallet.seed, wallet_address: wallet.address });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ seed_format: 'base64_key', wallet_version: 'V5R1' });
    const mismatch = await resolve({ seed: wallet.seed, wallet_address: BIP39_INDEX0_V5R1 });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe('WALLET_ADDRESS_MISMATCH');
  });

  it.each([
    [
      'INVALID_BIP39_SEED',
      { seed: 'cook voyage document eight skate token alien guide drink uncle term term', account_index: 0 },
      'Check all 12 words and their order.',
    ],
    [
      'INVALID_WALLET_ADDRESS',
      { seed: BIP39_PHRASE, wallet_address: '0:xyz' },
      'Send a valid friendly or raw address.',
    ],
    ['INVALID_ACCOUNT_INDEX', { seed: BIP39_PHRASE, account_index: 101 }, 'Send an integer from 0 to 100.'],
    [
      'WALLET_INDEX_NOT_FOUND',
      { seed: BIP39_PHRASE, wallet_address: 'UQADGkHaOHfStKdqJEwB916xGjQsSP25XahcJWomf-7pRELD' },
      'Call the resolver and reuse its account_index.',
    ],
    ['UNSUPPORTED_WALLET_SEED_FORMAT', { seed: 'not a seed at all' }, undefined],
  ])('%s is a 400 with the spec action', async (code, body, action) => {
    const response = await resolve(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    if (action) expect(response.body.action).toBe(action);
    expect(JSON.stringify(response.body)).not.toContain('cook voyage');
  });

  it('a testnet address on this mainnet deployment is INVALID_WALLET_ADDRESS saying so', async () => {
    const response = await resolve({
      seed: BIP39_PHRASE,
      wallet_address: '0QBY_bi0lbR4Ww6Tmfjf_dbaEsJ2Pm0VlMmQBl3Cm-ljKGDm',
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_WALLET_ADDRESS');
    expect(response.body.message.toLowerCase()).toContain('testnet');
  });

  it('rejects unknown fields', async () => {
    const response = await resolve({ seed: BIP39_PHRASE, account_index: 0, network: 'mainnet' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('UNKNOWN_FIELD');
  });

  it('a seed phrase beside a wallet_address or account_index of the wrong type is a 400, not a 500', async () => {
    // The fuzzer's find: the derivation limiter keyed its cache lookup on the unvalidated body.
    const misspelled = BIP39_PHRASE.replace(/^\S+/, 'abandzn');
    for (const body of [
      { seed: misspelled, wallet_address: true },
      { seed: BIP39_PHRASE, wallet_address: { raw: 1 } },
      { seed: BIP39_PHRASE, account_index: '1' },
    ]) {
      const response = await resolve(body);
      expect(response.status).toBe(400);
      expect(['INVALID_WALLET_ADDRESS', 'INVALID_ACCOUNT_INDEX']).toContain(response.body.code);
      const purchase = await request(suite.gateway.app)
        .post('/api/v1/purchases')
        .send({
          ...body,
          product: 'stars',
          amount: 50,
          username: '@alice',
          payment_method: 'gram',
          idempotency_key: 'k-1',
        });
      expect(purchase.status).toBe(400);
    }
  });

  it('reports balances_error instead of balances when the chain is unreachable', async () => {
    const offline = await createTestGateway({ TONCENTER_URL: 'http://127.0.0.1:9/toncenter' });
    try {
      const response = await request(offline.app)
        .post('/api/v1/wallets/resolve')
        .send({ seed: BIP39_PHRASE, account_index: 0 });
      expect(response.status).toBe(200);
      expect(response.body.balances).toBeUndefined();
      expect(response.body.balances_error).toBe('CHAIN_UNAVAILABLE');
    } finally {
      await offline.close();
    }
  });
});
