import type { Address } from '@ton/core';
import type { PurchaseRow } from '@starsgate/db';
import { rowQuantities, type PaymentMethod, type Product } from '@starsgate/domain';
import type { StepDeps } from '../step-deps';
import type { FundsNeed } from './funds-check';
import { outflow } from './payment-request';
import { leastNeedByPriceBook } from './price-precheck';

/**
 * What the payer's other open orders will take from `wallet` before this one (docs/security.md,
 * attack 19b): each parallel order was compared with the whole balance, so a wallet that could pay
 * for one order opened Fragment orders for many. An accepted request reserves exactly what it pays;
 * an older order not priced by Fragment yet reserves the least the price book says it will ask.
 */
export async function reservedByOpenOrders(
  deps: Pick<StepDeps, 'reservations' | 'prices' | 'config'>,
  row: Pick<PurchaseRow, 'id' | 'payerPublicKey'>,
  wallet: Address,
): Promise<FundsNeed> {
  const orders = await deps.reservations.openOrders({
    walletAddress: wallet.toRawString(),
    publicKey: row.payerPublicKey,
    id: row.id,
  });
  const reserved: FundsNeed = { gram: 0n, usdt: 0n };
  for (const order of orders) {
    const need = order.paymentRequest
      ? outflow(order.paymentRequest)
      : await leastNeedByPriceBook(deps.prices, deps.config, {
          product: order.product as Product,
          amount: order.amount,
          quantities: rowQuantities(order),
          paymentMethod: order.paymentMethod as PaymentMethod,
        });
    reserved.gram += need.gram;
    reserved.usdt += need.usdt;
  }
  return reserved;
}
