import { acceptsAmount, isValidAmount, productDescription, rowQuantities, type Quantities } from '@starsgate/domain';
import type { FragmentProduct, TonConnectAccount } from './types';

const RAW_ADDRESS = /^-?\d+:[0-9a-fA-F]{64}$/;

/** A Fragment API method name as `confirm_method` may name it. */
export const METHOD_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

export function validateAccount(account: TonConnectAccount): void {
  if (!RAW_ADDRESS.test(account.address)) throw new TypeError('account.address must be a raw address 0:<64 hex>');
  if (account.chain !== '-239' && account.chain !== '-3') throw new TypeError('account.chain must be "-239" or "-3"');
  if (!/^[0-9a-fA-F]{64}$/.test(account.publicKey)) throw new TypeError('account.publicKey must be 64 hex chars');
  if (typeof account.walletStateInit !== 'string' || account.walletStateInit === '')
    throw new TypeError('account.walletStateInit is required');
}

/** The domain's amount rule of the product (the gateway validated it already; this guards direct callers). */
export function validateAmount(product: FragmentProduct, amount: number): void {
  if (!isValidAmount(product, amount))
    throw new RangeError(
      `${product} amount ${amount} breaks the rule: ${productDescription(product).amountDescription}`,
    );
}

/** An order's quantities: given as the legacy amount of a one-quantity product, or by name. */
export function orderQuantities(product: FragmentProduct, order: number | Quantities): Quantities {
  return typeof order === 'number' ? rowQuantities({ product, amount: order }) : order;
}

/** Every quantity of the product held to its domain rule (the gateway validated them already). */
export function validateQuantities(product: FragmentProduct, quantities: Quantities): void {
  for (const field of productDescription(product).quantities) {
    const value = quantities[field.quantity];
    if (value === undefined || !acceptsAmount(field.rule, value))
      throw new RangeError(
        `${product} ${field.quantity} ${value} breaks the rule: ${productDescription(product).amountDescription}`,
      );
  }
}
