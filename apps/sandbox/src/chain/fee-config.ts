import { beginCell, Dictionary, type Cell } from '@ton/core';
import { loadConfig, updateConfig } from '@ton/sandbox';

/**
 * Fee parameters of the local chain.
 *
 * @ton/sandbox 0.41 ships the Dec-2025 mainnet config, whose prices are about 6x today's
 * (2026) mainnet prices. We divide every price in config params 18 (storage), 20/21 (gas,
 * masterchain/basechain) and 24/25 (message forwarding) by {@link FEE_DIVISOR}, rounding up.
 * This reproduces the documented 2026 basechain figures exactly:
 * gas_price 26214400 -> 4369067, lump_price 400000 -> 66667 (nanotons; gas price in 1/65536 units).
 * Limits (gas_limit, credit, block limits, freeze/delete thresholds) are left untouched.
 */
export const FEE_DIVISOR = 6n;

type ChainConfig = ReturnType<typeof loadConfig>;
type GasParam = ChainConfig[21];
type FwdParam = ChainConfig[25];
type GasLimitsPrices = GasParam['anon0'];

const cut = (value: bigint): bigint => (value + FEE_DIVISOR - 1n) / FEE_DIVISOR;

function cheaperGas(prices: GasLimitsPrices): GasLimitsPrices {
  switch (prices.kind) {
    case 'GasLimitsPrices_gas_flat_pfx':
      return { ...prices, flat_gas_price: cut(prices.flat_gas_price), other: cheaperGas(prices.other) };
    case 'GasLimitsPrices_gas_prices':
    case 'GasLimitsPrices_gas_prices_ext':
      return { ...prices, gas_price: cut(prices.gas_price) };
  }
}

function cheaperFwd<T extends FwdParam | ChainConfig[24]>(param: T): T {
  const p = param.anon0;
  return {
    ...param,
    anon0: { ...p, lump_price: cut(p.lump_price), bit_price: cut(p.bit_price), _cell_price: cut(p._cell_price) },
  };
}

/** Config params 18 (storage), 20/21 (gas) and 24/25 (forwarding prices). */
const FEE_PARAMS = [18, 20, 21, 24, 25] as const;

/**
 * The fee params of `config`, parsed. loadConfig parses every param it is given, the validator
 * sets included (a third of a local chain's start-up CPU), so it gets a config of these five.
 */
function loadFeeParams(config: Cell): ChainConfig {
  const all = config.beginParse().loadDictDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const fees = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const id of FEE_PARAMS) {
    const param = all.get(id);
    if (param) fees.set(id, param);
  }
  return loadConfig(beginCell().storeDictDirect(fees).endCell());
}

/** Returns a copy of `config` with 2026-level fees (see {@link FEE_DIVISOR}). */
export function apply2026FeeParams(config: Cell): Cell {
  const parsed = loadFeeParams(config);
  const storage = parsed[18];
  for (const key of storage.anon0.keys()) {
    const p = storage.anon0.get(key);
    if (!p) continue;
    storage.anon0.set(key, {
      ...p,
      bit_price_ps: cut(p.bit_price_ps),
      _cell_price_ps: cut(p._cell_price_ps),
      mc_bit_price_ps: cut(p.mc_bit_price_ps),
      mc_cell_price_ps: cut(p.mc_cell_price_ps),
    });
  }
  const mcGas: ChainConfig[20] = { ...parsed[20], anon0: cheaperGas(parsed[20].anon0) };
  const gas: ChainConfig[21] = { ...parsed[21], anon0: cheaperGas(parsed[21].anon0) };
  return updateConfig(config, storage, mcGas, gas, cheaperFwd(parsed[24]), cheaperFwd(parsed[25]));
}

export interface BasechainPrices {
  gasPrice: bigint;
  lumpPrice: bigint;
  bitPrice: bigint;
  cellPrice: bigint;
}

/** Basechain prices actually in force, for /demo and tests. */
export function readBasechainPrices(config: Cell): BasechainPrices {
  const parsed = loadFeeParams(config);
  let gas: GasLimitsPrices = parsed[21].anon0;
  while (gas.kind === 'GasLimitsPrices_gas_flat_pfx') gas = gas.other;
  const fwd = parsed[25].anon0;
  return { gasPrice: gas.gas_price, lumpPrice: fwd.lump_price, bitPrice: fwd.bit_price, cellPrice: fwd._cell_price };
}
