import { AppError } from '../errors/app-error';
import { normalizePaymentMethod, PAYMENT_METHOD_NAMES, PAYMENT_METHODS, type PaymentMethod } from './payment-methods';
import { PRODUCT_REGISTRY, PRODUCTS, type Product } from './product-registry';

/** Whether `product` can be paid in `method` (its description's `paymentMethods`). */
export function offersPaymentMethod(product: Product, method: PaymentMethod): boolean {
  return (PRODUCT_REGISTRY[product].paymentMethods as readonly PaymentMethod[]).includes(method);
}

/** `` GRAM top-up: `gram` only. ``: the products not sold in every currency (the API's descriptions). */
export const PAYMENT_METHOD_RESTRICTIONS = PRODUCTS.filter(
  (product) => PRODUCT_REGISTRY[product].paymentMethods.length < PAYMENT_METHODS.length,
)
  .map((product) => {
    const { title, paymentMethods } = PRODUCT_REGISTRY[product];
    return `${title}: ${paymentMethods.map((method) => `\`${method}\``).join(' or ')} only.`;
  })
  .join(' ');

/**
 * The canonical payment method of an order, refused before anything is stored when the product is
 * not sold for it: 400 PAYMENT_METHOD_UNAVAILABLE naming `payment_method` (a client error, unlike
 * the 422 of an availability answer or a purchase outcome).
 */
export function orderPaymentMethod(product: Product, value: string): PaymentMethod {
  const method = normalizePaymentMethod(value);
  if (!method) throw AppError.field('VALIDATION_FAILED', 'payment_method', 'payment_method must be gram or usdt');
  if (offersPaymentMethod(product, method)) return method;
  const { title, paymentMethods } = PRODUCT_REGISTRY[product];
  const accepted = paymentMethods.map((offered) => PAYMENT_METHOD_NAMES[offered]).join(' or ');
  const message = `${title} is paid in ${accepted} only.`;
  throw new AppError('PAYMENT_METHOD_UNAVAILABLE', {
    status: 400,
    message,
    details: [{ field: 'payment_method', message }],
    action: `Use payment_method=${paymentMethods.join(' or payment_method=')}.`,
  });
}
