import { PURCHASE_STATUSES, TERMINAL_STATUSES } from '@starsgate/domain';

/** A parenthesised SQL list of string literals (statuses are fixed identifiers, never input). */
function literalList(values: readonly string[], separator: string): string {
  return `(${values.map((value) => `'${value}'`).join(separator)})`;
}

/** `status NOT IN <this>`: a live row. From the domain's lifecycles, never written by hand. */
export const TERMINAL_STATUS_LIST = literalList(TERMINAL_STATUSES, ', ');

/** Every status a row may hold (the table's check constraint). */
export const PURCHASE_STATUS_LIST = literalList(PURCHASE_STATUSES, ',');
