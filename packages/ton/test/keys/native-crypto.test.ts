/**
 * useNativeTonCrypto swaps node:crypto into @ton/crypto's sync hashes and tweetnacl's ed25519 (it
 * runs for every suite, from jest.setup.js). Here each swapped function is held to the published
 * JavaScript on random inputs, through the paths the libraries use: @ton/crypto's wrappers, cell
 * hashes in @ton/core, a wallet transfer signed by @ton/ton.
 */
import * as tonCore from '@ton/core';
import * as tonCrypto from '@ton/crypto';
import * as tonWallets from '@ton/ton';
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { useNativeTonCrypto } from '../../src/keys/native-crypto';
import { javascriptTonLibraries } from './javascript-ton-crypto';

// Order of the group: little-endian, as an ed25519 signature stores S.
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

function addGroupOrder(signature: Buffer): Buffer {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`) + GROUP_ORDER;
  const bytes = Buffer.from(s.toString(16).padStart(64, '0'), 'hex').reverse();
  return Buffer.concat([signature.subarray(0, 32), bytes]);
}

describe('useNativeTonCrypto', () => {
  const js = javascriptTonLibraries();

  beforeAll(() => useNativeTonCrypto());

  it('derives, signs and verifies as tweetnacl does, through @ton/crypto', () => {
    // tweetnacl takes tens of milliseconds per round here: 24 rounds, messages of 0 to 1,012 bytes.
    for (let i = 0; i < 24; i += 1) {
      const seed = randomBytes(32);
      const data = randomBytes(i * 44);
      const ours = tonCrypto.keyPairFromSeed(seed);
      const theirs = js.crypto.keyPairFromSeed(seed);
      expect(ours.publicKey.equals(theirs.publicKey)).toBe(true);
      expect(ours.secretKey.equals(theirs.secretKey)).toBe(true);
      const signature = tonCrypto.sign(data, ours.secretKey);
      expect(signature.equals(js.crypto.sign(data, theirs.secretKey))).toBe(true);
      expect(tonCrypto.signVerify(data, signature, ours.publicKey)).toBe(true);

      const tampered = Buffer.from(signature);
      tampered.writeUInt8(tampered.readUInt8(i % 64) ^ (1 << (i % 8)), i % 64);
      expect(tonCrypto.signVerify(data, tampered, ours.publicKey)).toBe(false);
      expect(js.crypto.signVerify(data, tampered, ours.publicKey)).toBe(false);
      const otherKey = tonCrypto.keyPairFromSeed(randomBytes(32)).publicKey;
      expect(tonCrypto.signVerify(data, signature, otherKey)).toBe(false);
    }
  });

  it('derives the same key from a mnemonic', async () => {
    const words = await tonCrypto.mnemonicNew(24);
    const ours = await tonCrypto.mnemonicToPrivateKey(words);
    const theirs = await js.crypto.mnemonicToPrivateKey(words);
    expect(ours.secretKey.equals(theirs.secretKey)).toBe(true);
  });

  it('hashes as jssha does: bytes and strings, SHA-256 and SHA-512', () => {
    const inputs: Array<Buffer | string> = [Buffer.alloc(0), '', 'Grüße, 🌍', randomBytes(1), randomBytes(200_000)];
    for (let i = 0; i < 50; i += 1) inputs.push(randomBytes(i * 13));
    for (const input of inputs) {
      expect(tonCrypto.sha256_sync(input).equals(js.crypto.sha256_sync(input))).toBe(true);
      expect(tonCrypto.sha512_sync(input).equals(js.crypto.sha512_sync(input))).toBe(true);
    }
  });

  it('gives @ton/core the same cell hashes, and @ton/ton the same signed transfer', () => {
    const keys = tonCrypto.keyPairFromSeed(randomBytes(32));
    const transfer = (core: typeof tonCore, ton: typeof tonWallets): tonCore.Cell => {
      const wallet = ton.WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
      return wallet.createTransfer({
        seqno: 7,
        secretKey: keys.secretKey,
        timeout: 1_900_000_000,
        sendMode: core.SendMode.PAY_GAS_SEPARATELY,
        messages: [
          core.internal({
            to: wallet.address,
            value: core.toNano('1.5'),
            body: core.beginCell().storeUint(0, 32).storeStringTail('starsgate').endCell(),
          }),
        ],
      });
    };
    const ours = transfer(tonCore, tonWallets);
    const theirs = transfer(js.core, js.ton);
    expect(ours.hash().equals(theirs.hash())).toBe(true);
    expect(ours.toBoc().equals(theirs.toBoc())).toBe(true);

    const tree = tonCore
      .beginCell()
      .storeBuffer(randomBytes(100))
      .storeRef(tonCore.beginCell().storeBuffer(randomBytes(60)).storeRef(tonCore.beginCell().storeUint(5, 8)))
      .endCell();
    const [parsed] = js.core.Cell.fromBoc(tree.toBoc());
    expect(parsed?.hash().equals(tree.hash())).toBe(true);
  });

  it('answers as tweetnacl where node:crypto would not: wrong sizes, types, and a key that is not seed ‖ public key', () => {
    const keys = tonCrypto.keyPairFromSeed(randomBytes(32));
    const data = new Uint8Array(randomBytes(40));
    expect(() => nacl.sign.detached(data, new Uint8Array(32))).toThrow(/bad secret key size/);
    expect(() => nacl.sign.keyPair.fromSeed(new Uint8Array(31))).toThrow(/bad seed size/);
    expect(() => nacl.sign.detached.verify(data, new Uint8Array(63), keys.publicKey)).toThrow(/bad signature size/);
    expect(() => nacl.sign.detached(Array.from(data) as unknown as Uint8Array, keys.secretKey)).toThrow(
      /unexpected type/,
    );

    const mixed = Buffer.concat([keys.secretKey.subarray(0, 32), tonCrypto.keyPairFromSeed(randomBytes(32)).publicKey]);
    expect(Buffer.from(nacl.sign.detached(data, mixed)).equals(Buffer.from(js.nacl.sign.detached(data, mixed)))).toBe(
      true,
    );
  });

  // This also shows the swap is in effect in the suite, and the reference copy is JavaScript.
  it('refuses a signature whose S is not reduced, which tweetnacl accepts (the validators refuse it too)', () => {
    const keys = tonCrypto.keyPairFromSeed(randomBytes(32));
    const data = randomBytes(32);
    const malleated = addGroupOrder(tonCrypto.sign(data, keys.secretKey));
    expect(js.crypto.signVerify(data, malleated, keys.publicKey)).toBe(true);
    expect(tonCrypto.signVerify(data, malleated, keys.publicKey)).toBe(false);
  });
});
