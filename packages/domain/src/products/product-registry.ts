import { acceptsAmount, amountSchemaOf, type ProductDescription } from './product-description';
import { gram } from './gram';
import { listedText } from './listed-text';
import { premium } from './premium';
import { premiumGiveaway } from './premium-giveaway';
import { stars } from './stars';

/**
 * Every product the service sells, described once. Adding a product is a pack here, its Fragment
 * pack in `@starsgate/fragment` (`src/products/`) and the simulator's (docs/architecture.md, "Add a product").
 */
export const PRODUCT_REGISTRY = { stars, premium, gram, premium_giveaway: premiumGiveaway } as const;

export type Product = keyof typeof PRODUCT_REGISTRY;
export const PRODUCTS = Object.keys(PRODUCT_REGISTRY) as [Product, ...Product[]];

export function isProduct(value: string): value is Product {
  return Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, value);
}

/** A product's description; throws on a name the registry does not hold (never a default product). */
export function productDescription(product: Product): ProductDescription<Product> {
  if (!isProduct(product)) throw new Error(`unknown product: ${String(product)}`);
  return PRODUCT_REGISTRY[product];
}

/** Whether `amount` is valid for the quantity a product's legacy `amount` carries. */
export function isValidAmount(product: Product, amount: number): boolean {
  const description = productDescription(product);
  const field = description.quantities.find((candidate) => candidate.quantity === description.amountQuantity);
  return field !== undefined && acceptsAmount(field.rule, amount);
}

/** `Stars: 50 to 1,000,000. Premium: months, 3, 6 or 12.` */
export const AMOUNT_DESCRIPTION = `${PRODUCTS.map((product) => PRODUCT_REGISTRY[product].amountDescription).join('. ')}.`;

/** How a quantity field other than `amount` reads in the API's descriptions. */
export const QUANTITY_FIELD_DESCRIPTION =
  "A quantity of the products whose fields name it (GET /api/v1/products lists each product's fields and limits); refused for the others";

const quoted = PRODUCTS.map((product) => `\`${product}\``);
/** `` `stars`, `premium` or `gram`. `` */
export const PRODUCT_DESCRIPTION = `${listedText(quoted, 'or')}.`;

/** Every request field that carries a quantity of some product (`amount`, then any product's own). */
export const QUANTITY_REQUEST_FIELDS = [
  ...new Set(PRODUCTS.flatMap((product) => productDescription(product).quantities.map((field) => field.requestField))),
];

/**
 * JSON Schema: each product's quantity fields, one if/then per product: its own are required and
 * held to their rules (INVALID_AMOUNT); another product's are refused (UNKNOWN_FIELD: `amount` on
 * a product whose quantities have fields of their own).
 */
export const amountByProductRule = [
  ...PRODUCTS.map(quantityRuleOf),
  // No known product: `amount` (the field most products take) is named as missing beside it.
  {
    if: { not: { properties: { product: { enum: [...PRODUCTS] } }, required: ['product'] } },
    then: { required: ['amount'] },
  },
];

function quantityRuleOf(product: Product) {
  const fields = productDescription(product).quantities;
  const own = new Set(fields.map((field) => field.requestField));
  return {
    if: { properties: { product: { const: product } }, required: ['product'] },
    then: {
      properties: {
        ...Object.fromEntries(fields.map((field) => [field.requestField, amountSchemaOf(field.rule)])),
        ...Object.fromEntries(QUANTITY_REQUEST_FIELDS.filter((name) => !own.has(name)).map((name) => [name, false])),
      },
      required: [...own],
    },
  };
}
