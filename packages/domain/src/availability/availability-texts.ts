/**
 * The outcome codes of an availability check (spec: "Rejection codes") and the human texts a
 * shop can show next to them. A check is point-in-time: it reserves nothing and guarantees no
 * delivery, so every action reminds the client to repeat it when an input changes.
 */
import {
  orderLineLabel,
  PAYMENT_METHOD_NAMES,
  PRODUCT_REGISTRY,
  PRODUCT_REJECTION_CODES,
  productRejection,
  rowQuantities,
  type PaymentMethod,
  type Product,
  type Quantities,
} from '../products';

export const AVAILABILITY_CODES = [
  'AVAILABLE',
  'RECIPIENT_NOT_FOUND',
  'RECIPIENT_INELIGIBLE',
  // The refusals only some product has (its pack declares them).
  ...PRODUCT_REJECTION_CODES,
  'PAYMENT_METHOD_UNAVAILABLE',
] as const;
export type AvailabilityCode = (typeof AVAILABILITY_CODES)[number];

export interface AvailabilitySubject {
  product: Product;
  username: string;
  amount: number;
  /** The order line's quantities (a one-quantity product's `amount` when absent). */
  quantities?: Quantities;
  payment_method: PaymentMethod;
}

export interface AvailabilityText {
  message: string;
  action: string;
}

const REPEAT = 'The check is point-in-time: repeat it whenever product, username, amount or payment method changes.';

export function describeAvailability(code: AvailabilityCode, subject: AvailabilitySubject): AvailabilityText {
  const item = orderLineLabel({ product: subject.product, quantities: subject.quantities ?? rowQuantities(subject) });
  const method = PAYMENT_METHOD_NAMES[subject.payment_method];
  switch (code) {
    case 'AVAILABLE':
      return {
        message: `${subject.username} can receive ${item}, paid in ${method}.`,
        action: `Enable payment. Nothing is reserved: the price is set when the purchase starts. ${REPEAT}`,
      };
    case 'RECIPIENT_NOT_FOUND':
      return {
        message: `No Telegram user has the username ${subject.username}.`,
        action: `Keep payment disabled and ask the customer to check the username. ${REPEAT}`,
      };
    case 'RECIPIENT_INELIGIBLE':
      return {
        message: `${subject.username} ${PRODUCT_REGISTRY[subject.product].ineligibleText}`,
        action: `Keep payment disabled; ask for a personal user account or try again later. ${REPEAT}`,
      };
    case 'PAYMENT_METHOD_UNAVAILABLE':
      return {
        message: `Paying for ${PRODUCT_REGISTRY[subject.product].title} in ${method} is not available on this service.`,
        action: `Keep this payment method disabled; offer payment_method=${subject.payment_method === 'usdt' ? 'gram' : 'usdt'} if it is available. ${REPEAT}`,
      };
    default: {
      const { availability } = productRejection(code);
      return { message: availability.message(subject.username), action: `${availability.action} ${REPEAT}` };
    }
  }
}
