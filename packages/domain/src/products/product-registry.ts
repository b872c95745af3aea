import { acceptsAmount, amountSchemaOf, type ProductDescription } from './product-description';
import { gram } from './gram';
import { premium } from './premium';
import { stars } from './stars';

/**
 * Every product the service sells, described once. Adding a product is a new description here and
 * its Fragment routes in `@starsgate/fragment` (docs/architecture.md, "Add a product").
 */
export const PRODUCT_REGISTRY = { stars, premium, gram } as const;

export type Product = keyof typeof PRODUCT_REGISTRY;
export const PRODUCTS = Object.keys(PRODUCT_REGISTRY) as [Product, ...Product[]];

export function productDescription(product: Product): ProductDescription<Product> {
  return PRODUCT_REGISTRY[product];
}

export function isProduct(value: string): value is Product {
  return Object.prototype.hasOwnProperty.call(PRODUCT_REGISTRY, value);
}

export function isValidAmount(product: Product, amount: number): boolean {
  return acceptsAmount(PRODUCT_REGISTRY[product].amount, amount);
}

/** `50 Telegram Stars`, `Telegram Premium for 6 months`, `Telegram Premium for 1 year`. */
export function productLabel(product: Product, amount: number): string {
  return PRODUCT_REGISTRY[product].label(amount);
}

/** `Stars: 50 to 1,000,000. Premium: months, 3, 6 or 12.` */
export const AMOUNT_DESCRIPTION = `${PRODUCTS.map((product) => PRODUCT_REGISTRY[product].amountDescription).join('. ')}.`;

const quoted = PRODUCTS.map((product) => `\`${product}\``);
/** `` `stars`, `premium` or `gram`. `` */
export const PRODUCT_DESCRIPTION = `${[quoted.slice(0, -1).join(', '), quoted.at(-1)].filter(Boolean).join(' or ')}.`;

/** JSON Schema: each product's amount rule (INVALID_AMOUNT), one if/then per product. */
export const amountByProductRule = PRODUCTS.map((product) => ({
  if: { properties: { product: { const: product } }, required: ['product'] },
  then: { properties: { amount: amountSchemaOf(PRODUCT_REGISTRY[product].amount) } },
}));
