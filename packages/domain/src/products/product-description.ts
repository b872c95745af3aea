import type { PaymentMethod } from './payment-methods';

/** The amounts a quantity accepts: a whole-number range (Stars) or a fixed list (Premium months). */
export type AmountRule =
  { kind: 'range'; minimum: number; maximum: number } | { kind: 'choices'; values: readonly number[] };

/**
 * One quantity of an order line (`stars`, `months`, `gram`, `winners`) and the request field that
 * carries it (`amount` for the products sold before order lines, the quantity's own name after).
 */
export interface QuantityField<Name extends string = string> {
  quantity: Name;
  requestField: string;
  rule: AmountRule;
}

/** Who receives the product: a personal account (`@alice`) or a channel (`@channel`). */
export type RecipientKind = 'user' | 'channel';

/**
 * `quoted`: Fragment names the price (read from its page); `face_value`: the quantity is itself the
 * price in GRAM (a top-up), so a quote needs no Fragment call.
 */
export type PricingKind = 'quoted' | 'face_value';

/** A product's part of GET /api/v1/prices: its property (keyed by product) and how it reads. */
export interface PriceListEntry {
  /** The quantities listed, the property's keys: `['50']`. */
  quantities: readonly string[];
  /** How the list names them in its description: `50 Stars`. */
  summary: string;
  /** The property's own description, if it needs one. */
  description?: string;
}

/**
 * A refusal only this product has (Premium: the recipient already has it): an error code of the
 * API and an availability outcome, merged into the error catalogue and the availability texts.
 */
export interface ProductRejection<Code extends string = string> {
  code: Code;
  status: number;
  /** The error catalogue's texts. */
  message: string;
  action: string;
  /** The availability answer's texts (the reminder to repeat the check is added to `action`). */
  availability: { message: (username: string) => string; action: string };
}

/**
 * Everything the service knows about one product, in one place: intake validation, the OpenAPI
 * document, the database's check constraint, labels and availability texts all derive from it.
 * Its Fragment side (pages, methods, readers) is its pack in `@starsgate/fragment` (`src/products/`).
 */
export interface ProductDescription<Name extends string = string, Quantity extends string = string> {
  name: Name;
  /** What the product is called in texts: `Telegram Stars`. */
  title: string;
  recipientKind: RecipientKind;
  pricing: PricingKind;
  /** The order line's quantities, in the order their canonical form lists them. */
  quantities: readonly QuantityField<Quantity>[];
  /** The quantity the legacy integer `amount` shows (column, API, webhooks). */
  amountQuantity: Quantity;
  /** A typical order's quantities, the API's example: `{ stars: 50 }`. */
  example: Readonly<Record<Quantity, number>>;
  /** How the quantities read in the API's descriptions: `Stars: 50 to 1,000,000`. */
  amountDescription: string;
  paymentMethods: readonly PaymentMethod[];
  /** `50 Telegram Stars`, `Telegram Premium for 1 year`. */
  label(quantities: Readonly<Record<Quantity, number>>): string;
  /** The availability text for RECIPIENT_INELIGIBLE (after the username). */
  ineligibleText: string;
  /**
   * Its place in GET /api/v1/prices, whose fixed shape predates GET /api/v1/products (absent: not
   * listed there); every product's reference prices are in GET /api/v1/products.
   */
  priceList?: PriceListEntry;
  /** The refusals only this product has (an empty list for most). */
  rejections: readonly ProductRejection[];
}

export function acceptsAmount(rule: AmountRule, amount: number): boolean {
  if (!Number.isInteger(amount)) return false;
  return rule.kind === 'range' ? amount >= rule.minimum && amount <= rule.maximum : rule.values.includes(amount);
}

/** The JSON Schema keywords that hold a quantity to its rule (used inside an if/then per product). */
export function amountSchemaOf(rule: AmountRule): { minimum: number; maximum: number } | { enum: number[] } {
  return rule.kind === 'range' ? { minimum: rule.minimum, maximum: rule.maximum } : { enum: [...rule.values] };
}
