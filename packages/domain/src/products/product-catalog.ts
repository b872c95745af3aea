import type { QuantityField } from './product-description';
import { PRODUCTS, type Product, productDescription } from './product-registry';

/** One request field of a product as GET /api/v1/products describes it. */
export type CatalogField = { name: string; quantity: string; type: 'integer' } & (
  { minimum: number; maximum: number } | { choices: number[] }
);

function catalogField(field: QuantityField): CatalogField {
  const base = { name: field.requestField, quantity: field.quantity, type: 'integer' as const };
  return field.rule.kind === 'range'
    ? { ...base, minimum: field.rule.minimum, maximum: field.rule.maximum }
    : { ...base, choices: [...field.rule.values] };
}

/** A product as GET /api/v1/products serves it: the registry's description, nothing else. */
export function catalogEntry(product: Product) {
  const description = productDescription(product);
  return {
    product,
    title: description.title,
    recipient_kind: description.recipientKind,
    payment_methods: [...description.paymentMethods],
    pricing: description.pricing,
    fields: description.quantities.map(catalogField),
  };
}

/** Every product, in registry order. */
export function productCatalog() {
  return PRODUCTS.map(catalogEntry);
}

/** The products GET /api/v1/prices lists (its fixed shape predates GET /api/v1/products). */
export const PRICE_LIST_PRODUCTS = PRODUCTS.filter((product) => productDescription(product).priceList !== undefined);
