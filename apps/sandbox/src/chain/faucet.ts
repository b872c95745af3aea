import { internal, toNano, type Address, type MessageRelaxed } from '@ton/core';
import { mintBody } from './usdt-jetton';

/** The faucet is a sandbox treasury contract derived from this seed; it also administers the USDT minter. */
export const TREASURY_SEED = 'starsgate-sandbox-faucet';
/** The treasury is topped up to stay above this, so funding never runs dry. */
export const TREASURY_FLOOR = toNano('1000000');
const USDT_MINT_ATTACH = toNano('0.1');
const USDT_MINT_WALLET_TON = toNano('0.05');

/**
 * The faucet's messages that fund `address`: a plain GRAM transfer and/or a real `mint` on the
 * USDT stand-in minter (micro-units). Empty when both amounts are zero.
 */
export function faucetMessages(
  faucet: { treasury: Address; usdtMaster: Address },
  address: Address,
  amounts: { gram?: bigint; usdt?: bigint },
): MessageRelaxed[] {
  const messages: MessageRelaxed[] = [];
  const gram = amounts.gram ?? 0n;
  const usdt = amounts.usdt ?? 0n;
  if (gram < 0n || usdt < 0n) throw new RangeError('faucet amounts must be >= 0');
  if (gram > 0n) messages.push(internal({ to: address, value: gram, bounce: false }));
  if (usdt > 0n) {
    messages.push(
      internal({
        to: faucet.usdtMaster,
        value: USDT_MINT_ATTACH,
        bounce: true,
        body: mintBody({
          minter: faucet.usdtMaster,
          to: address,
          amount: usdt,
          response: faucet.treasury,
          walletTon: USDT_MINT_WALLET_TON,
        }),
      }),
    );
  }
  return messages;
}
