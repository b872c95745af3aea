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

export function validateAmount(product: FragmentProduct, amount: number): void {
  if (product === 'stars') {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('stars quantity must be a positive integer');
  } else if (amount !== 3 && amount !== 6 && amount !== 12) {
    throw new RangeError('premium months must be 3, 6 or 12');
  }
}
