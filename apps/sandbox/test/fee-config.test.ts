/**
 * The local chain's 2026 fees (chain/fee-config.ts): the documented basechain figures, the other
 * params of @ton/sandbox's config untouched, and the parsed config kept only while it is in force.
 */
import { Cell, Dictionary } from '@ton/core';
import { Blockchain, loadConfig } from '@ton/sandbox';
import { LocalChain } from '../src';
import { apply2026FeeParams, FEE_DIVISOR, readBasechainPrices } from '../src/chain/fee-config';

const FEE_PARAMS = new Set([18, 20, 21, 24, 25]);

function params(config: Cell): Map<number, string> {
  const dict = config.beginParse().loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  return new Map([...dict].map(([id, cell]) => [id, cell.hash().toString('hex')]));
}

describe('2026 fee params', () => {
  let shipped: Cell;
  beforeAll(async () => {
    shipped = (await Blockchain.create()).config;
  });

  it('divides the shipped prices by FEE_DIVISOR, giving the documented basechain figures', () => {
    const before = readBasechainPrices(shipped);
    const after = readBasechainPrices(apply2026FeeParams(shipped));
    expect(after).toEqual({ gasPrice: 4_369_067n, lumpPrice: 66_667n, bitPrice: 4_369_067n, cellPrice: 436_906_667n });
    expect(after.lumpPrice).toBe((before.lumpPrice + FEE_DIVISOR - 1n) / FEE_DIVISOR);
    // The full parse of the whole config agrees with the five-param one.
    const full = loadConfig(apply2026FeeParams(shipped));
    expect(full[25].anon0.lump_price).toBe(after.lumpPrice);
    const storageBefore = loadConfig(shipped)[18].anon0.values()[0]!;
    expect(full[18].anon0.values()[0]?._cell_price_ps).toBe(
      (storageBefore._cell_price_ps + FEE_DIVISOR - 1n) / FEE_DIVISOR,
    );
  });

  it('changes the fee params only', () => {
    const before = params(shipped);
    const after = params(apply2026FeeParams(shipped));
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, hash] of before) {
      if (FEE_PARAMS.has(id)) expect(after.get(id)).not.toBe(hash);
      else expect(after.get(id)).toBe(hash);
    }
  });

  it('a local chain answers its fees and config from the config in force', async () => {
    const chain = await LocalChain.create({ dataDir: null, autoStart: false });
    try {
      expect(chain.feePrices().gasPrice).toBe(4_369_067n);
      expect(chain.configCell).toBe(chain.configCell);
      expect(params(chain.configCell)).toEqual(params(apply2026FeeParams(shipped)));
    } finally {
      await chain.close();
    }
  });
});
