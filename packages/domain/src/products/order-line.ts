import type { QuantityField } from './product-description';
import { type Product, productDescription } from './product-registry';

/** An order's quantities by name: `{ stars: 50 }`, `{ months: 6 }`, `{ winners: 10, months: 3 }`. */
export type Quantities = Readonly<Record<string, number>>;

/**
 * What an order buys: the product, its recipient (`@username` as the client sent it) and the
 * product's quantities. Stored in `purchases.order_line`; `amount` stays beside it for the API.
 */
export interface OrderLine {
  product: Product;
  recipient: string;
  quantities: Quantities;
}

export function quantityFieldsOf(product: Product): readonly QuantityField[] {
  return productDescription(product).quantities;
}

/** The quantities a request carries, each from its request field (unchecked: intake validates them). */
export function quantitiesFromRequest(product: Product, request: object): Quantities {
  const fields = request as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    quantityFieldsOf(product).map((field) => [field.quantity, Number(fields[field.requestField])]),
  );
}

/** The order line of an intake request (`amount` for Stars/Premium/GRAM, their own fields after). */
export function orderLineFromRequest(product: Product, recipient: string, request: object): OrderLine {
  return { product, recipient, quantities: quantitiesFromRequest(product, request) };
}

/** The legacy `amount` of a line: the quantity its product shows there. */
export function lineAmount(line: Pick<OrderLine, 'product' | 'quantities'>): number {
  const quantity = productDescription(line.product).amountQuantity;
  const value = line.quantities[quantity];
  if (value === undefined) throw new Error(`order line of ${line.product} has no ${quantity}`);
  return value;
}

/**
 * The quantities of a stored row: its order line's, or for a row written before order lines (or a
 * webhook snapshot without one) the `amount` of a one-quantity product.
 */
export function rowQuantities(row: { product: string; amount: number; orderLine?: unknown }): Quantities {
  const line = row.orderLine as OrderLine | null | undefined;
  if (line?.quantities) return line.quantities;
  const product = productDescription(row.product as Product);
  if (product.quantities.length !== 1) throw new Error(`row of ${row.product} has no order line`);
  return { [product.amountQuantity]: row.amount };
}

/**
 * The quantities as the idempotency fingerprint and history matching compare them: a one-quantity
 * product's bare number (the `String(amount)` fingerprints were made with before order lines, so an
 * existing order's fingerprint is unchanged), else `name=value` pairs in the product's order.
 */
export function canonicalQuantities(line: Pick<OrderLine, 'product' | 'quantities'>): string {
  const fields = quantityFieldsOf(line.product);
  if (fields.length === 1) return String(line.quantities[fields[0]!.quantity]);
  return fields.map((field) => `${field.quantity}=${line.quantities[field.quantity]}`).join(',');
}

/** `50 Telegram Stars`, `Telegram Premium for 1 year`. */
export function orderLineLabel(line: Pick<OrderLine, 'product' | 'quantities'>): string {
  return productDescription(line.product).label(line.quantities);
}

/** The label of a one-quantity product's `amount` (`productLabel('premium', 12)`: `Telegram Premium for 1 year`). */
export function productLabel(product: Product, amount: number): string {
  return orderLineLabel({ product, quantities: rowQuantities({ product, amount }) });
}
