import { customType } from 'drizzle-orm/pg-core';
import {
  PAYMENT_METHODS,
  PRODUCTS,
  PURCHASE_MODES,
  PURCHASE_STATUSES,
  type PaymentMethod,
  type Product,
  type PurchaseMode,
  type PurchaseStatus,
} from '@starsgate/domain';

/**
 * A row holds a value this build does not know (written by a newer release, or by hand): reading
 * it as one of ours would act on a guess, so the read fails here, where the row is decoded.
 */
export class UnknownColumnValueError extends Error {
  constructor(
    readonly column: string,
    readonly value: string,
  ) {
    super(`purchases.${column} holds ${JSON.stringify(value)}, which this release does not know`);
    this.name = 'UnknownColumnValueError';
  }
}

/** Decodes one column's text as one of `values`, or throws UnknownColumnValueError. */
function decoder<T extends string>(column: string, values: readonly T[]): (value: string) => T {
  const known: ReadonlySet<string> = new Set(values);
  return (value) => {
    if (!known.has(value)) throw new UnknownColumnValueError(column, value);
    return value as T;
  };
}

export const decodePurchaseStatus = decoder<PurchaseStatus>('status', PURCHASE_STATUSES);
export const decodePurchaseMode = decoder<PurchaseMode>('mode', PURCHASE_MODES);
export const decodeProduct = decoder<Product>('product', PRODUCTS);
export const decodePaymentMethod = decoder<PaymentMethod>('payment_method', PAYMENT_METHODS);

/**
 * A text column whose values are one of the domain's identifiers: typed as the domain's union,
 * and decoded once where Drizzle maps a row from the driver (typed selects, and raw rows through
 * driver-rows.ts), so an unknown value fails loudly instead of being cast downstream.
 */
function domainText<T extends string>(decode: (value: string) => T) {
  return (name: string) =>
    customType<{ data: T; driverData: string }>({ dataType: () => 'text', fromDriver: decode })(name);
}

export const purchaseStatusColumn = domainText(decodePurchaseStatus);
export const purchaseModeColumn = domainText(decodePurchaseMode);
export const productColumn = domainText(decodeProduct);
export const paymentMethodColumn = domainText(decodePaymentMethod);
