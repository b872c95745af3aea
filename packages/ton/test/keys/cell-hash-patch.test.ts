/**
 * The build-time patch of @ton/crypto's `sha256_sync` (packages/ton/patches/README.md), behind
 * every @ton/core cell hash: applied to the installed version, on node:crypto, and hashing as the
 * published jssha does. An upgrade of @ton/crypto fails here until the copy is made again.
 */
import * as tonCore from '@ton/core';
import { sha256_sync, sha512_sync } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import JsSha from 'jssha';
import { nativeCellHashing } from '../../src';

interface Patch {
  package: string;
  version: string;
  file: string;
  publishedSha256: string;
  replacement: string;
}

const patchesDir = path.resolve(__dirname, '../../patches');
const patches = JSON.parse(readFileSync(path.join(patchesDir, 'patches.json'), 'utf8')) as Patch[];

function javascriptSha256(source: Buffer | string): Buffer {
  const hasher = new JsSha('SHA-256', 'HEX');
  hasher.update((typeof source === 'string' ? Buffer.from(source, 'utf-8') : source).toString('hex'));
  return Buffer.from(hasher.getHash('HEX'), 'hex');
}

describe('the cell-hash patch of @ton/crypto', () => {
  it.each(patches.map((patch) => [`${patch.package} ${patch.file}`, patch] as const))(
    '%s is patched for the installed version, with the replacement in place',
    (_label, patch) => {
      const packageJson = require.resolve(`${patch.package}/package.json`);
      const installed = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
      expect(installed).toBe(patch.version);
      const target = readFileSync(path.join(path.dirname(packageJson), patch.file));
      expect(target.equals(readFileSync(path.join(patchesDir, patch.replacement)))).toBe(true);
    },
  );

  it('passes the start-up self-check: sha256_sync on node:crypto, a cell hashed as its representation', () => {
    expect((sha256_sync as { native?: unknown }).native).toBe(true);
    expect(nativeCellHashing()).toBe(true);
  });

  it('hashes as jssha does: bytes and strings (and leaves SHA-512 as published)', () => {
    const inputs: Array<Buffer | string> = [Buffer.alloc(0), '', 'Grüße, 🌍', randomBytes(1), randomBytes(200_000)];
    for (let i = 0; i < 50; i += 1) inputs.push(randomBytes(i * 13));
    for (const input of inputs) {
      expect(sha256_sync(input).equals(javascriptSha256(input))).toBe(true);
      const bytes = typeof input === 'string' ? Buffer.from(input, 'utf-8') : input;
      expect(sha512_sync(input).equals(createHash('sha512').update(bytes).digest())).toBe(true);
    }
  });

  it('gives @ton/core the published hashes: the wallet codes and a tree parsed back from its BOC', () => {
    // The wallet code hashes everyone publishes (docs/ton.md §2).
    const key = randomBytes(32);
    const codeHash = (code: tonCore.Cell): string => tonCore.Cell.fromBoc(code.toBoc())[0]!.hash().toString('hex');
    expect(codeHash(WalletContractV5R1.create({ workchain: 0, publicKey: key }).init.code)).toMatch(
      /^20834b7b.*52d2b72f$/,
    );
    expect(codeHash(WalletContractV4.create({ workchain: 0, publicKey: key }).init.code)).toMatch(
      /^feb5ff68.*9dabd5c0$/,
    );
    expect(codeHash(WalletContractV3R2.create({ workchain: 0, publicKey: key }).init.code)).toMatch(
      /^84dafa44.*75d2d599$/,
    );

    const tree = tonCore
      .beginCell()
      .storeBuffer(randomBytes(100))
      .storeRef(tonCore.beginCell().storeBuffer(randomBytes(60)).storeRef(tonCore.beginCell().storeUint(5, 8)))
      .endCell();
    const [parsed] = tonCore.Cell.fromBoc(tree.toBoc());
    expect(parsed?.hash().equals(tree.hash())).toBe(true);
    // A leaf's hash is the SHA-256 of its representation (descriptors, data), by jssha.
    const leaf = tonCore.beginCell().storeUint(5, 8).endCell();
    expect(leaf.hash().equals(javascriptSha256(Buffer.from([0x00, 0x02, 0x05])))).toBe(true);
  });
});
