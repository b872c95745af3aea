import { PAYMENT_METHODS, PRODUCTS, PURCHASE_MODES, PURCHASE_STATUSES, TERMINAL_STATUSES } from '@starsgate/domain';

/** A parenthesised SQL list of string literals (the domain's fixed identifiers, never input). */
function literalList(values: readonly string[], separator: string): string {
  return `(${values.map((value) => `'${value}'`).join(separator)})`;
}

/** `status NOT IN <this>`: a live row. From the domain's lifecycles, never written by hand. */
export const TERMINAL_STATUS_LIST = literalList(TERMINAL_STATUSES, ', ');

/** Every status a row may hold (the table's check constraint). */
export const PURCHASE_STATUS_LIST = literalList(PURCHASE_STATUSES, ',');

/** Every purchase mode (the table's mode check constraint). */
export const PURCHASE_MODE_LIST = literalList(PURCHASE_MODES, ', ');

/** Every product of the domain's registry (the table's product check constraint). */
export const PRODUCT_LIST = literalList(PRODUCTS, ',');

/** Every payment method (the table's payment method check constraint). */
export const PAYMENT_METHOD_LIST = literalList(PAYMENT_METHODS, ',');
