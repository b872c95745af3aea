import request from 'supertest';
import { mnemonicNew } from '@ton/crypto';
import { SecretVault, generateRingEntry, parseKeyRing } from '@starsgate/db';
import { redactSecretText } from '@starsgate/platform';
import { createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';
import { dumpDatabase, dumpRedis } from './support/secret-dumps';

let gateway: TestGateway;
let tonMnemonic: string;
const BIP39 = 'cook voyage document eight skate token alien guide drink uncle term abuse';
const BASE64_KEY = Buffer.alloc(32, 0x5a).toString('base64');

beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
  tonMnemonic = (await mnemonicNew(24)).join(' ');
});
afterAll(() => gateway.close());

describe('wallet secrets never appear in plain text', () => {
  it('is absent from logs, error bodies, Redis and every database column', async () => {
    const secrets = [BIP39, BASE64_KEY];
    const firstOrder = starsOrder({ seed: BIP39, account_index: 0 });
    const accepted = await request(gateway.app).post('/api/v1/purchases').send(firstOrder);
    expect(accepted.status).toBe(202);
    const accepted24 = await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ seed: tonMnemonic, account_index: undefined }));
    expect(accepted24.status).toBe(202);
    secrets.push(tonMnemonic);
    const acceptedKey = await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ seed: BASE64_KEY, account_index: undefined }));
    expect(acceptedKey.status).toBe(202);

    // Error paths that see the seed: bad checksum, schema failure next to a seed, conflict, unknown field.
    const bodies = [
      await request(gateway.app)
        .post('/api/v1/purchases')
        .send(starsOrder({ seed: `${BIP39.split(' ').slice(0, 11).join(' ')} zoo` })),
      await request(gateway.app)
        .post('/api/v1/purchases')
        .send(starsOrder({ seed: BIP39, amount: 1 })),
      await request(gateway.app)
        .post('/api/v1/purchases')
        .send(starsOrder({ seed: BIP39, mnemonic: BIP39 })),
      await request(gateway.app)
        .post('/api/v1/purchases')
        .send({ ...firstOrder, username: '@zed' }),
      await request(gateway.app)
        .post('/api/v1/purchases')
        .set('Content-Type', 'application/json')
        .send(`{"seed": "${BIP39}", broken`),
      await request(gateway.app).post('/api/v1/wallets/resolve').send({ seed: BIP39 }),
    ].map((response) => JSON.stringify(response.body));

    const logs = gateway.logLines.join('\n');
    const redis = await dumpRedis(gateway.redis);
    const database = await dumpDatabase(gateway.database.pool);
    expect(logs.length).toBeGreaterThan(0);
    expect(bodies[3]).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(database).toContain(accepted.body.purchase_id);
    for (const secret of secrets) {
      for (const [where, text] of [
        ['logs', logs],
        ['error bodies', bodies.join('\n')],
        ['redis', redis],
        ['database', database],
      ] as const) {
        expect({ where, leaked: text.includes(secret) }).toEqual({ where, leaked: false });
        expect({
          where,
          leaked: text.includes(secret.split(' ').slice(0, 6).join(' ')) && secret.includes(' '),
        }).toEqual({ where, leaked: false });
      }
    }
  });

  it('stores a ciphertext that opens only with the key ring and the row it belongs to', async () => {
    const accepted = await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ seed: BIP39, account_index: 3 }));
    const row = await gateway.database.pool.query(
      'SELECT key_id, wrapped_key, ciphertext FROM wallet_secrets WHERE purchase_id = $1',
      [accepted.body.purchase_id],
    );
    const sealed = {
      keyId: row.rows[0].key_id,
      wrappedKey: row.rows[0].wrapped_key,
      ciphertext: row.rows[0].ciphertext,
    };
    const opened = gateway.vault.open(accepted.body.purchase_id, sealed);
    expect(opened.toString('utf8')).toBe(BIP39);
    opened.fill(0);
    expect(() => gateway.vault.open('00000000-0000-4000-8000-000000000000', sealed)).toThrow();
    const otherVault = new SecretVault(parseKeyRing(generateRingEntry(sealed.keyId)));
    expect(() => otherVault.open(accepted.body.purchase_id, sealed)).toThrow();
  });

  it('redacts mnemonics and keys that reach a log line by accident', () => {
    const line = `failed for seed ${BIP39} with key ${BASE64_KEY} and id 42`;
    const cleaned = redactSecretText(line);
    expect(cleaned).not.toContain('voyage');
    expect(cleaned).not.toContain(BASE64_KEY);
    expect(cleaned).toContain('id 42');
    expect(redactSecretText('the quick brown fox jumps over the lazy dog again and again today')).toContain('quick');
  });
});
