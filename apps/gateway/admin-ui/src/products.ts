/**
 * The products an operator can filter orders by: the `product` values the operator document
 * (`/admin/api/openapi.json`) allows on `GET /admin/api/purchases`, read at run time, so a product
 * the gateway adds appears here without a change to the page.
 */
interface OperatorDocument {
  paths: Record<string, { get?: { parameters?: Array<{ name: string; schema?: { enum?: unknown[] } }> } }>;
}

export function purchaseProducts(document: OperatorDocument): string[] {
  const parameter = document.paths['/admin/api/purchases']?.get?.parameters?.find((entry) => entry.name === 'product');
  return (parameter?.schema?.enum ?? []).filter((value): value is string => typeof value === 'string');
}

export type { OperatorDocument };
