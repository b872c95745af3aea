/**
 * Our ed25519 on node:crypto (src/keys/ed25519.ts: key derivation, signing, @ton/ton's `signer`
 * hook, checkout and ton_proof verification) held to @ton/crypto's published JavaScript (tweetnacl)
 * on random inputs, and to a whole V5R1 transfer signed by @ton/ton with the secret key.
 */
import * as tonCore from '@ton/core';
import * as tonCrypto from '@ton/crypto';
import * as tonWallets from '@ton/ton';
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { cellSigner, keyPairFromSeed, signEd25519, signEd25519IfConsistent, verifyEd25519 } from '../../src';

// Order of the group: little-endian, as an ed25519 signature stores S.
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

function addGroupOrder(signature: Buffer): Buffer {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`) + GROUP_ORDER;
  const bytes = Buffer.from(s.toString(16).padStart(64, '0'), 'hex').reverse();
  return Buffer.concat([signature.subarray(0, 32), bytes]);
}

describe('ed25519 on node:crypto', () => {
  it('derives, signs and verifies as tweetnacl does', () => {
    // tweetnacl takes tens of milliseconds per round here: 24 rounds, messages of 0 to 1,012 bytes.
    for (let i = 0; i < 24; i += 1) {
      const seed = randomBytes(32);
      const data = randomBytes(i * 44);
      const ours = keyPairFromSeed(seed);
      const theirs = tonCrypto.keyPairFromSeed(seed);
      expect(ours.publicKey.equals(theirs.publicKey)).toBe(true);
      expect(ours.secretKey.equals(theirs.secretKey)).toBe(true);
      const signature = signEd25519(data, ours.secretKey);
      expect(signature.equals(tonCrypto.sign(data, theirs.secretKey))).toBe(true);
      expect(verifyEd25519(data, signature, ours.publicKey)).toBe(true);
      expect(tonCrypto.signVerify(data, signature, ours.publicKey)).toBe(true);

      const tampered = Buffer.from(signature);
      tampered.writeUInt8(tampered.readUInt8(i % 64) ^ (1 << (i % 8)), i % 64);
      expect(verifyEd25519(data, tampered, ours.publicKey)).toBe(false);
      expect(tonCrypto.signVerify(data, tampered, ours.publicKey)).toBe(false);
      const otherKey = keyPairFromSeed(randomBytes(32)).publicKey;
      expect(verifyEd25519(data, signature, otherKey)).toBe(false);
    }
  });

  it('derives the key of a mnemonic as @ton/crypto does', async () => {
    const words = await tonCrypto.mnemonicNew(24);
    const theirs = await tonCrypto.mnemonicToPrivateKey(words);
    const ours = keyPairFromSeed(theirs.secretKey.subarray(0, 32));
    expect(ours.secretKey.equals(theirs.secretKey)).toBe(true);
  });

  it('signs a V5R1 transfer through @ton/ton’s signer hook byte for byte as with the secret key', async () => {
    const keys = keyPairFromSeed(randomBytes(32));
    const wallet = tonWallets.WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
    const args = {
      seqno: 7,
      timeout: 1_900_000_000,
      sendMode: tonCore.SendMode.PAY_GAS_SEPARATELY,
      messages: [
        tonCore.internal({
          to: wallet.address,
          value: tonCore.toNano('1.5'),
          body: tonCore.beginCell().storeUint(0, 32).storeStringTail('starsgate').endCell(),
        }),
      ],
    };
    const ours = await wallet.createTransfer({ ...args, signer: cellSigner(keys.secretKey) });
    const theirs = wallet.createTransfer({ ...args, secretKey: keys.secretKey });
    expect(ours.hash().equals(theirs.hash())).toBe(true);
    expect(ours.toBoc().equals(theirs.toBoc())).toBe(true);
  });

  it('answers wrong sizes and a key that is not seed ‖ public key without signing with another key', () => {
    const keys = keyPairFromSeed(randomBytes(32));
    const data = randomBytes(40);
    expect(() => signEd25519(data, Buffer.alloc(32))).toThrow(RangeError);
    expect(() => keyPairFromSeed(Buffer.alloc(31))).toThrow(RangeError);
    expect(verifyEd25519(data, Buffer.alloc(63), keys.publicKey)).toBe(false);
    expect(verifyEd25519(data, signEd25519(data, keys.secretKey), Buffer.alloc(31))).toBe(false);
    // tweetnacl throws where verifyEd25519 answers false.
    expect(() => nacl.sign.detached.verify(data, new Uint8Array(63), keys.publicKey)).toThrow(/bad signature size/);

    // tweetnacl signs with the half it is given, a signature no key verifies; we refuse to sign.
    const mixed = Buffer.concat([keys.secretKey.subarray(0, 32), keyPairFromSeed(randomBytes(32)).publicKey]);
    expect(signEd25519IfConsistent(data, mixed)).toBeUndefined();
    expect(signEd25519IfConsistent(data, keys.secretKey)?.equals(signEd25519(data, keys.secretKey))).toBe(true);
    const naclMixed = Buffer.from(nacl.sign.detached(data, mixed));
    expect(verifyEd25519(data, naclMixed, keys.publicKey)).toBe(false);
  });

  it('refuses a signature whose S is not reduced, which tweetnacl accepts (the validators refuse it too)', () => {
    const keys = keyPairFromSeed(randomBytes(32));
    const data = randomBytes(32);
    const malleated = addGroupOrder(signEd25519(data, keys.secretKey));
    expect(tonCrypto.signVerify(data, malleated, keys.publicKey)).toBe(true);
    expect(verifyEd25519(data, malleated, keys.publicKey)).toBe(false);
  });
});
