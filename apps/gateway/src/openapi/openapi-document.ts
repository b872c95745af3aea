import {
  CreatePurchaseRequestSchema,
  ErrorBodySchema,
  PurchaseAcceptedSchema,
  PurchaseSchema,
  listedText,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  PRODUCT_REGISTRY,
  PRODUCTS,
} from '@starsgate/domain';
import { API_VERSION } from './api-version';

type Schema = Record<string, unknown>;

/** Schemas live in @starsgate/domain; the document refers to them by their `$id`. */
const COMPONENT_SCHEMAS: Schema[] = [
  CreatePurchaseRequestSchema,
  PurchaseAcceptedSchema,
  PurchaseSchema,
  ErrorBodySchema,
];

function component(schema: Schema): [string, Schema] {
  const { $id, ...rest } = schema;
  return [String($id), rest];
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('ErrorBody')) });

export const CLIENT_ERRORS = {
  '400': errorResponse(
    'Invalid request: fix the field named in `details`. Codes: VALIDATION_FAILED, UNKNOWN_FIELD, MALFORMED_JSON, INVALID_AMOUNT, PAYMENT_METHOD_UNAVAILABLE (the product is not sold in that currency) and the wallet codes.',
  ),
  '413': errorResponse('Body too large (PAYLOAD_TOO_LARGE).'),
  '415': errorResponse('Body is not application/json (UNSUPPORTED_MEDIA_TYPE).'),
  '429': {
    description: 'Rate limited (RATE_LIMITED). Wait for `Retry-After` seconds (also `retry_after` in the body).',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: json(ref('ErrorBody')),
  },
  '500': errorResponse('Internal error: keep the same idempotency key and read the purchase status first.'),
  '503': errorResponse(
    'Temporarily unavailable (SERVICE_UNAVAILABLE, e.g. Redis cannot be reached; nothing was stored): retry after `Retry-After` seconds with the same idempotency key.',
  ),
};

/** The order-creating routes' 429: the per-client limit, or the caps on open unpaid orders. */
export const OPEN_ORDERS_429 = {
  ...CLIENT_ERRORS['429'],
  description:
    "RATE_LIMITED (per client), or OPEN_ORDERS_LIMIT_REACHED: too many orders are waiting to be paid for this payer wallet (OPEN_ORDERS_PER_PAYER) or in total (OPEN_ORDERS_TOTAL); each holds a Fragment order on the operator's login. Wait `Retry-After` seconds (also `retry_after` in the body) and retry with the same idempotency key; a replay of a stored order is never refused.",
};

/** Path items other features add (wallets, availability, prices, checkouts). */
export interface OpenApiContribution {
  paths: Record<string, unknown>;
  schemas: Schema[];
  securitySchemes?: Record<string, unknown>;
  tags?: Array<{ name: string; description: string }>;
}

/**
 * What the service sells, named from the registry: every product, then those paid in fewer
 * methods than all, with the methods they are paid in.
 */
const SERVICE_INTRODUCTION = (() => {
  const restricted = PRODUCTS.filter(
    (product) => PRODUCT_REGISTRY[product].paymentMethods.length < PAYMENT_METHODS.length,
  ).map(
    (product) =>
      `${PRODUCT_REGISTRY[product].title} in ${listedText(
        PRODUCT_REGISTRY[product].paymentMethods.map((method) => PAYMENT_METHOD_NAMES[method]),
        'or',
      )} only`,
  );
  const methods = listedText(
    PAYMENT_METHODS.map((method) => PAYMENT_METHOD_NAMES[method]),
    'or',
  );
  const titles = listedText(PRODUCTS.map((product) => PRODUCT_REGISTRY[product].title));
  const exceptions = restricted.length > 0 ? ` (${restricted.join('; ')})` : '';
  return `Buys ${titles} through Fragment (GET /api/v1/products lists each product, its fields and limits), paying from your own TON wallet in ${methods}${exceptions}.`;
})();

/**
 * The public document, served on the public port: `/api/v1`, the probes. The operator API has its
 * own (operator-openapi-document.ts), so the public one names no operator route (docs/security.md,
 * attack 22).
 */
export function buildOpenApiDocument(contributions: OpenApiContribution[] = []) {
  const schemas = [...COMPONENT_SCHEMAS, ...contributions.flatMap((contribution) => contribution.schemas)];
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'starsgate',
      // The SDKs' version (scripts/release/versions.mjs generates it from packages/sdk/package.json).
      version: API_VERSION,
      description: [
        SERVICE_INTRODUCTION,
        '',
        'Money is exact: every amount (prices, balances, shortfalls, invoice amounts) is a decimal string, `format: decimal`, never a JSON number; base-unit fields (nanoGRAM, micro-USDT) are strings of digits.',
        '',
        'No API key and no access fee. Every state-changing request carries an `idempotency_key`, scoped to the payer (the wallet of the seed, or the payer_address of a checkout): reuse it (with identical fields) when retrying the same order; a key the same payer reused for a different order answers 409 IDEMPOTENCY_KEY_REUSED.',
        '',
        'Purchase statuses: queued → preparing → sending → submitted → confirming → completed | failed | reconciliation_required. Only `completed` confirms delivery. `reconciliation_required` means the outcome is uncertain: stop, review manually, never create an automatic replacement.',
        '',
        'Errors share one body: `code` (stable), `message`, `details[{field, message}]`, optional `action` and `retry_after`, and `request_id`.',
      ].join('\n'),
    },
    servers: [{ url: '/' }],
    paths: {
      '/api/v1/purchases': {
        post: {
          operationId: 'createPurchase',
          summary: 'Create a server-signed purchase',
          description:
            'Validates, stores the purchase and answers 202 `queued`. 202 means accepted, not delivered: poll `status_url`. A retry with the same key and identical fields answers 202 with the current status and `Idempotent-Replayed: true`.',
          requestBody: { required: true, content: json(ref('CreatePurchaseRequest')) },
          responses: {
            '202': {
              description: 'Accepted (or replayed).',
              headers: {
                'Idempotent-Replayed': {
                  description: '`true` when answered from an existing purchase.',
                  schema: { type: 'string' },
                },
                Location: { schema: { type: 'string' } },
              },
              content: json(ref('PurchaseAccepted')),
            },
            '409': {
              description:
                'IDEMPOTENCY_KEY_REUSED (`x-should-retry: false`) or IDEMPOTENCY_REQUEST_IN_PROGRESS (retry after `Retry-After`).',
              content: json(ref('ErrorBody')),
            },
            ...CLIENT_ERRORS,
            '429': OPEN_ORDERS_429,
          },
        },
      },
      '/api/v1/purchases/{purchase_id}': {
        get: {
          operationId: 'getPurchase',
          summary: 'Read a purchase',
          description:
            'Poll until a terminal status (completed, failed, reconciliation_required). A 1-2 s interval is plenty.',
          parameters: [{ name: 'purchase_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            '200': { description: 'The purchase.', content: json(ref('Purchase')) },
            '404': errorResponse('PURCHASE_NOT_FOUND: check purchase_id and the environment.'),
            '429': CLIENT_ERRORS['429'],
            '503': errorResponse(
              'SERVICE_UNAVAILABLE: Redis (which counts requests for the rate limit) cannot be reached. Retry after `Retry-After` seconds.',
            ),
          },
        },
      },
      ...Object.fromEntries(contributions.flatMap((contribution) => Object.entries(contribution.paths))),
      '/livez': { get: { summary: 'Liveness', responses: { '200': { description: 'The process runs.' } } } },
      '/readyz': {
        get: {
          summary: 'Readiness (PostgreSQL, migrations, Redis; 503 while draining)',
          responses: { '200': { description: 'Ready.' }, '503': { description: 'Not ready or draining.' } },
        },
      },
    },
    tags: contributions.flatMap((contribution) => contribution.tags ?? []),
    components: {
      schemas: Object.fromEntries(schemas.map(component)),
      securitySchemes: Object.fromEntries(
        contributions.flatMap((contribution) => Object.entries(contribution.securitySchemes ?? {})),
      ),
    },
  };
}
