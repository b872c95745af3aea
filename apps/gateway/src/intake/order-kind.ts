import { orderLineFromRequest, orderPaymentMethod, type Product } from '@starsgate/domain';
import type { LogicalOrder } from './order-fingerprint';

/** What tells the order kinds apart inside the one intake (order-intake.ts). */
export interface OrderKind {
  /** Part of the fingerprint, so a purchase and a checkout never replay each other. */
  route: LogicalOrder['route'];
  /** The rows' `mode`, also the `purchases_created_total` label. */
  mode: 'server_signed' | 'client_signed';
  /** How logs name the stored order's id. */
  idField: 'purchase_id' | 'checkout_id';
  /** The request field that names the payer, in a refusal by the per-payer cap. */
  payerField: 'seed' | 'payer_address';
}

/** POST /api/v1/purchases: server-signed, the payer identified by its seed. */
export const PURCHASE_ORDERS: OrderKind = {
  route: 'purchases',
  mode: 'server_signed',
  idField: 'purchase_id',
  payerField: 'seed',
};

/** POST /api/v1/checkouts: client-signed, the payer identified by its address. */
export const CHECKOUT_ORDERS: OrderKind = {
  route: 'checkouts',
  mode: 'client_signed',
  idField: 'checkout_id',
  payerField: 'payer_address',
};

/** The request fields every order kind shares; the product's quantity fields (`amount`, …) beside them. */
export interface OrderRequest {
  product: Product;
  username: string;
  payment_method: string;
}

/**
 * The logical order without its wallet, read first by every kind: the payment method is checked
 * against the product registry (400 PAYMENT_METHOD_UNAVAILABLE) before anything else is looked at.
 */
export function logicalOrder(kind: OrderKind, input: OrderRequest): LogicalOrder {
  return {
    route: kind.route,
    line: orderLineFromRequest(input.product, input.username, input),
    paymentMethod: orderPaymentMethod(input.product, input.payment_method),
  };
}
