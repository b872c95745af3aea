import { Address } from '@ton/core';
import { PAYMENT_METHOD_NAMES, PRODUCT_REGISTRY, PRODUCTS } from '@starsgate/domain';
import type { WorkerConfig } from '../config';
import { fail, ok, type CheckResult } from './check';

/**
 * The payment allow-list as each product meets it: which addresses a GRAM payment, and a USDT
 * jetton transfer, of that product may go to. A refusal names the address Fragment asked for
 * (PAYMENT_REJECTED_BY_POLICY, `destination`), so an operator compares it with this list.
 */
export function checkAllowListPerProduct(
  config: Pick<WorkerConfig, 'fragmentReceivingAddresses' | 'network'>,
): CheckResult[] {
  const action =
    "Add Fragment's receiving wallet named by the refusal to FRAGMENT_RECEIVING_ADDRESSES (docs/fragment-protocol.md §6.4).";
  const listed = config.fragmentReceivingAddresses
    .map((raw) =>
      Address.parseRaw(raw).toString({ bounceable: false, urlSafe: true, testOnly: config.network === 'testnet' }),
    )
    .join(', ');
  return PRODUCTS.map((product) => {
    const item = `allow-list ${product}`;
    const payments = PRODUCT_REGISTRY[product].paymentMethods
      .map((method) => (PAYMENT_METHOD_NAMES[method] === 'USDT' ? 'USDT jetton transfers' : 'GRAM payments'))
      .join(' and ');
    if (config.fragmentReceivingAddresses.length === 0)
      return fail(item, `${payments} may go nowhere: FRAGMENT_RECEIVING_ADDRESSES is empty`, action);
    return ok(item, `${payments} may go to ${listed}`);
  });
}
