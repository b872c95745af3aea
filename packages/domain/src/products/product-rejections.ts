import type { ProductRejection } from './product-description';
import { PRODUCT_REGISTRY, PRODUCTS, type Product } from './product-registry';

type RejectionOf<Pack> = Pack extends { rejections: readonly (infer Rejection)[] } ? Rejection : never;

/** The codes of the refusals some product declares (`PREMIUM_ALREADY_ACTIVE`). */
export type ProductRejectionCode =
  RejectionOf<(typeof PRODUCT_REGISTRY)[Product]> extends { code: infer Code } ? Code : never;

/** Every product's own refusals, in registry order. */
export const PRODUCT_REJECTIONS = PRODUCTS.flatMap(
  (product) => PRODUCT_REGISTRY[product].rejections,
) as readonly ProductRejection<ProductRejectionCode>[];

export const PRODUCT_REJECTION_CODES = PRODUCT_REJECTIONS.map((rejection) => rejection.code);

/** A product refusal by its code; throws on a code no product declares. */
export function productRejection(code: string): ProductRejection<ProductRejectionCode> {
  const rejection = PRODUCT_REJECTIONS.find((candidate) => candidate.code === code);
  if (!rejection) throw new Error(`no product declares the rejection ${code}`);
  return rejection;
}

/** The error catalogue's entries of the product refusals: code → status, message, action. */
export const PRODUCT_ERROR_DEFINITIONS = Object.fromEntries(
  PRODUCT_REJECTIONS.map(({ code, status, message, action }) => [code, { status, message, action }]),
) as Record<ProductRejectionCode, { readonly status: number; readonly message: string; readonly action: string }>;
