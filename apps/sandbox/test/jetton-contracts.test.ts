/**
 * The jetton code the sandbox deploys is what its committed FunC sources compile to: the FunC
 * compiler (@ton-community/func-js) builds apps/sandbox/contracts/jetton, and each code cell's
 * hash equals the one recorded beside the committed BOC and in the contracts' README.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileFunc } from '@ton-community/func-js';
import { Cell } from '@ton/core';
import { jettonCode } from '../src/chain/usdt-jetton';
import { JETTON_MINTER_CODE, JETTON_WALLET_CODE, type CompiledContract } from '@starsgate/ton/testing';

jest.setTimeout(60_000);

const CONTRACTS = path.resolve(__dirname, '../contracts/jetton');
const readme = readFileSync(path.join(CONTRACTS, 'README.md'), 'utf8');

async function compile(targets: string[]): Promise<Cell> {
  const result = await compileFunc({
    targets,
    sources: (file: string) => readFileSync(path.join(CONTRACTS, file), 'utf8'),
  });
  if (result.status !== 'ok') throw new Error(result.message);
  return Cell.fromBase64(result.codeBoc);
}

const hashOf = (compiled: CompiledContract) => Cell.fromBase64(compiled.boc).hash().toString('hex');

test.each([
  [
    'minter',
    JETTON_MINTER_CODE,
    [
      'stdlib.fc',
      'params.fc',
      'op-codes.fc',
      'discovery-params.fc',
      'jetton-utils.fc',
      'jetton-minter-discoverable.fc',
    ],
  ],
  ['wallet', JETTON_WALLET_CODE, ['stdlib.fc', 'params.fc', 'op-codes.fc', 'jetton-utils.fc', 'jetton-wallet.fc']],
] as const)('the %s compiles from its sources to the committed code and hash', async (_name, compiled, targets) => {
  expect(hashOf(compiled)).toBe(compiled.codeHash);
  expect((await compile([...targets])).hash().toString('hex')).toBe(compiled.codeHash);
  expect(readme).toContain(`\`${targets.join(' ')}\` | \`${compiled.codeHash}\``);
});

test('the sandbox deploys that code', () => {
  const { minter, wallet } = jettonCode();
  expect(minter.hash().toString('hex')).toBe(JETTON_MINTER_CODE.codeHash);
  expect(wallet.hash().toString('hex')).toBe(JETTON_WALLET_CODE.codeHash);
});
