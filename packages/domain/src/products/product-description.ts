import type { PaymentMethod } from './payment-methods';

/** The amounts a product accepts: a whole-number range (Stars) or a fixed list (Premium months). */
export type AmountRule =
  { kind: 'range'; minimum: number; maximum: number } | { kind: 'choices'; values: readonly number[] };

/**
 * Everything the service knows about one product, in one place: intake validation, the OpenAPI
 * document, the database's check constraint, labels and availability texts all derive from it.
 * Its Fragment side (pages, methods, readers) is described in `@starsgate/fragment` (`routes.ts`).
 */
export interface ProductDescription<Name extends string = string> {
  name: Name;
  /** What the product is called in texts: `Telegram Stars`. */
  title: string;
  amount: AmountRule;
  /** How `amount` reads in the API's descriptions: `Stars: 50 to 1,000,000`. */
  amountDescription: string;
  paymentMethods: readonly PaymentMethod[];
  /** `50 Telegram Stars`, `Telegram Premium for 1 year`. */
  label(amount: number): string;
  /** The availability text for RECIPIENT_INELIGIBLE (after the username). */
  ineligibleText: string;
}

export function acceptsAmount(rule: AmountRule, amount: number): boolean {
  if (!Number.isInteger(amount)) return false;
  return rule.kind === 'range' ? amount >= rule.minimum && amount <= rule.maximum : rule.values.includes(amount);
}

/** The JSON Schema keywords that hold `amount` to the rule (used inside an if/then per product). */
export function amountSchemaOf(rule: AmountRule): { minimum: number; maximum: number } | { enum: number[] } {
  return rule.kind === 'range' ? { minimum: rule.minimum, maximum: rule.maximum } : { enum: [...rule.values] };
}
