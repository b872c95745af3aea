import type { Product as ProductInfo, ProductCatalog } from './generated/openapi-types.js';

/** A product's quantities by name, as `GET /api/v1/products` names them: `{ winners: 10, months: 3 }`. */
export type Quantities = Record<string, number>;

/**
 * The request fields that carry `quantities`, read from the product's entry in the catalogue
 * (`fields[].quantity` → `fields[].name`), so a product the gateway adds needs no SDK release.
 * A name that is no quantity of the product is sent as it is: the gateway answers it with the
 * field named in `details`, as it does every other invalid order.
 */
export function requestFieldsOf(
  catalog: ProductCatalog,
  product: string,
  quantities: Quantities,
): Record<string, number> {
  const fields = productEntry(catalog, product)?.fields ?? [];
  return Object.fromEntries(
    Object.entries(quantities).map(([quantity, value]) => [
      fields.find((field) => field.quantity === quantity)?.name ?? quantity,
      value,
    ]),
  );
}

export function productEntry(catalog: ProductCatalog, product: string): ProductInfo | undefined {
  return catalog.products.find((entry) => entry.product === product);
}
