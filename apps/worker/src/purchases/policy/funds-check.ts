import type { Address } from '@ton/core';
import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from '@starsgate/domain';
import type { ChainClient } from '@starsgate/ton';

export interface FundsShortfall {
  currency: 'GRAM' | 'USDT';
  required: string;
  available: string;
  shortfall: string;
}

export type FundsResult = { ok: true } | { ok: false; details: FundsShortfall[] };

export interface Balances {
  /** nanoGRAM of the wallet. */
  gram: bigint;
  /** USDT base units of its jetton wallet (0 when none was asked for). */
  usdt: bigint;
  /** The wallet's last transaction lt when read (0 for a wallet without transactions). */
  lastLt: bigint;
}

export interface FundsNeed {
  /** Everything the messages carry, nanoGRAM (USDT: the gas attach). */
  gram: bigint;
  usdt: bigint;
}

export async function readBalances(chain: ChainClient, wallet: Address, jettonWallet?: Address): Promise<Balances> {
  const state = await chain.getAccountState(wallet);
  return {
    gram: state.balance,
    usdt: jettonWallet ? await chain.getJettonBalance(jettonWallet) : 0n,
    lastLt: state.lastTransaction?.lt ?? 0n,
  };
}

/**
 * GRAM ≥ carried GRAM + fee reserve; USDT ≥ jetton amounts. `details` lists every currency
 * involved as decimal strings (GRAM 9 dp, USDT 6 dp), shortfall "0" where covered.
 */
export function compareFunds(balances: Balances, need: FundsNeed, feeReserveNano: bigint): FundsResult {
  const lines: Array<{ currency: 'GRAM' | 'USDT'; required: bigint; available: bigint; decimals: number }> = [
    { currency: 'GRAM', required: need.gram + feeReserveNano, available: balances.gram, decimals: GRAM_DECIMALS },
  ];
  if (need.usdt > 0n)
    lines.push({ currency: 'USDT', required: need.usdt, available: balances.usdt, decimals: USDT_DECIMALS });
  if (lines.every((line) => line.available >= line.required)) return { ok: true };
  return {
    ok: false,
    details: lines.map((line) => ({
      currency: line.currency,
      required: formatUnits(line.required, line.decimals),
      available: formatUnits(line.available, line.decimals),
      shortfall: formatUnits(line.required > line.available ? line.required - line.available : 0n, line.decimals),
    })),
  };
}

/** What is left of `balances` once `reserved` (open orders of the payer, attack 19b) is set aside; never below 0. */
export function lessReserved(balances: Balances, reserved: FundsNeed): Balances {
  const left = (have: bigint, held: bigint) => (have > held ? have - held : 0n);
  return { ...balances, gram: left(balances.gram, reserved.gram), usdt: left(balances.usdt, reserved.usdt) };
}
