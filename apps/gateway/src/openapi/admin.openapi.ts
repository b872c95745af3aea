import {
  AdminPurchaseDetailSchema,
  AdminPurchaseListQuerySchema,
  AdminPurchaseListSchema,
  AdminPurchaseSummarySchema,
  AdminStatsSchema,
  CreateWebhookEndpointRequestSchema,
  ResolvePurchaseRequestSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '@starsgate/domain';
import type { OpenApiContribution } from './openapi-document';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ref('ErrorBody')) });

/** Every admin operation: the `admin` tag (no public SDK method), the bearer token, 401/403. */
function admin(operation: Record<string, unknown> & { responses: Record<string, unknown> }) {
  return {
    tags: ['admin'],
    security: [{ adminToken: [] }],
    ...operation,
    responses: {
      ...operation.responses,
      '401': error('ADMIN_TOKEN_REQUIRED: no `Authorization: Bearer` header.'),
      '403': error('ADMIN_TOKEN_INVALID: the token is not one of STARSGATE_ADMIN_TOKENS.'),
    },
  };
}

/** Query parameters from a query schema's properties. */
function queryParameters(schema: { properties: Record<string, unknown> }) {
  return Object.entries(schema.properties).map(([name, property]) => ({ name, in: 'query', schema: property }));
}

const purchaseId = { name: 'purchase_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const endpointId = { name: 'endpoint_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const deliveryId = { name: 'delivery_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

export const adminOpenApi: OpenApiContribution = {
  tags: [
    {
      name: 'admin',
      description:
        'Operator API under `/admin/api` (not part of the public contract; no SDK method). Bearer tokens from STARSGATE_ADMIN_TOKENS; without any configured token these routes do not exist (404).',
    },
  ],
  securitySchemes: {
    adminToken: { type: 'http', scheme: 'bearer', description: 'A token of STARSGATE_ADMIN_TOKENS.' },
  },
  schemas: [
    ResolvePurchaseRequestSchema,
    CreateWebhookEndpointRequestSchema,
    AdminPurchaseSummarySchema,
    AdminPurchaseDetailSchema,
    AdminPurchaseListSchema,
    AdminStatsSchema,
    WebhookEndpointSchema,
    WebhookEndpointWithSecretSchema,
    WebhookDeliverySchema,
    WebhookDeliveryListSchema,
  ],
  paths: {
    '/admin/api/purchases': {
      get: admin({
        operationId: 'adminListPurchases',
        summary: 'Find purchases (newest first, keyset pagination)',
        parameters: queryParameters(AdminPurchaseListQuerySchema),
        responses: {
          '200': { description: 'A page; `next_cursor` null at the end.', content: json(ref('AdminPurchaseList')) },
          '400': error('VALIDATION_FAILED, UNKNOWN_FIELD, INVALID_CURSOR or INVALID_WALLET_ADDRESS.'),
        },
      }),
    },
    '/admin/api/purchases/{purchase_id}': {
      get: admin({
        operationId: 'adminGetPurchase',
        summary: 'One purchase with its timeline and evidence',
        parameters: [purchaseId],
        responses: {
          '200': { description: 'The purchase.', content: json(ref('AdminPurchaseDetail')) },
          '404': error('PURCHASE_NOT_FOUND.'),
        },
      }),
    },
    '/admin/api/purchases/{purchase_id}/resolve': {
      post: admin({
        operationId: 'adminResolvePurchase',
        summary: 'Settle a reconciliation case with evidence',
        description:
          "Only for `reconciliation_required`. `completed` needs the payer wallet transaction that paid this purchase's Fragment request (receiver, amount and payload checked on chain); `failed` is refused while the chain shows the payment executed. The outcome, operator and reason land in the timeline.",
        parameters: [purchaseId],
        requestBody: { required: true, content: json(ref('ResolvePurchaseRequest')) },
        responses: {
          '200': { description: 'The settled purchase.', content: json(ref('AdminPurchaseDetail')) },
          '400': error('VALIDATION_FAILED or UNKNOWN_FIELD.'),
          '404': error('PURCHASE_NOT_FOUND.'),
          '409': error(
            'PURCHASE_NOT_IN_RECONCILIATION, RESOLUTION_EVIDENCE_MISMATCH (details say what did not match), PAYMENT_EXECUTED or PURCHASE_CHANGED.',
          ),
          '503': error('CHAIN_UNAVAILABLE: nothing was changed.'),
        },
      }),
    },
    '/admin/api/stats': {
      get: admin({
        operationId: 'adminStats',
        summary: 'Counts, ages, the last hour and the queues',
        responses: { '200': { description: 'Stats.', content: json(ref('AdminStats')) } },
      }),
    },
    '/admin/api/pipeline': {
      get: admin({
        operationId: 'adminPipeline',
        summary: 'What is moving now (the dashboard)',
        description:
          "Each open status with its longest-waiting purchase, completions and failures per minute over the last hour, wallets with a transaction in flight, and each worker's upstream health (Fragment sessions by position, chain latency and errors).",
        responses: {
          '200': {
            description: 'The pipeline.',
            content: json({
              type: 'object',
              required: ['open', 'throughput', 'wallets_in_flight', 'workers'],
              properties: {
                open: { type: 'array', items: { type: 'object' } },
                throughput: { type: 'array', items: { type: 'object' } },
                wallets_in_flight: { type: 'array', items: { type: 'object' } },
                workers: { type: 'array', items: { type: 'object' } },
              },
            }),
          },
        },
      }),
    },
    '/admin/api/fragment-sessions': {
      get: admin({
        operationId: 'adminFragmentSessions',
        summary: 'Each Fragment login: account, linked wallet, alive or dead since, last order',
        description:
          'The Fragment logins the workers use, as they record them: a login whose page shows it logged out is `dead` (out of rotation, rechecked on a schedule) until a check finds it live again. Ids are hashes of the cookies, never the cookies.',
        responses: {
          '200': {
            description: 'The logins.',
            content: json({
              type: 'object',
              required: ['data'],
              properties: {
                data: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['session_id', 'account_id', 'state', 'since'],
                    properties: {
                      session_id: {
                        type: 'string',
                        description: 'The login session (12 hex of a hash of its stel_ssid).',
                      },
                      account_id: { type: 'string', description: 'The Telegram account it belongs to (12 hex).' },
                      state: { type: 'string', enum: ['alive', 'dead'] },
                      since: { type: 'string', format: 'date-time', description: 'When it became alive or dead.' },
                      reason: { type: ['string', 'null'], description: 'Why it is dead.' },
                      wallet_address: {
                        type: ['string', 'null'],
                        description: 'The wallet linked to the account, as its page shows it (raw form).',
                      },
                      last_order_at: { type: ['string', 'null'], format: 'date-time' },
                      checked_at: { type: ['string', 'null'], format: 'date-time' },
                    },
                  },
                },
              },
            }),
          },
        },
      }),
    },
    '/admin/api/webhook-endpoints': {
      post: admin({
        operationId: 'adminCreateWebhookEndpoint',
        summary: 'Register a webhook endpoint',
        requestBody: { required: true, content: json(ref('CreateWebhookEndpointRequest')) },
        responses: {
          '201': {
            description: 'Created; `secret` is shown only here.',
            content: json(ref('WebhookEndpointWithSecret')),
          },
          '400': error('VALIDATION_FAILED, UNKNOWN_FIELD or WEBHOOK_URL_NOT_ALLOWED.'),
        },
      }),
      get: admin({
        operationId: 'adminListWebhookEndpoints',
        summary: 'List webhook endpoints (secrets masked)',
        responses: {
          '200': {
            description: 'Endpoints.',
            content: json({ type: 'object', properties: { data: { type: 'array', items: ref('WebhookEndpoint') } } }),
          },
        },
      }),
    },
    '/admin/api/webhook-endpoints/{endpoint_id}': {
      delete: admin({
        operationId: 'adminDeleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint (its pending deliveries stop)',
        parameters: [endpointId],
        responses: { '204': { description: 'Deleted.' }, '404': error('WEBHOOK_ENDPOINT_NOT_FOUND.') },
      }),
    },
    '/admin/api/webhook-endpoints/{endpoint_id}/rotate-secret': {
      post: admin({
        operationId: 'adminRotateWebhookSecret',
        summary: 'New signing secret; the previous one keeps signing for 24 h',
        parameters: [endpointId],
        responses: {
          '200': { description: 'The new secret, shown only here.', content: json(ref('WebhookEndpointWithSecret')) },
          '404': error('WEBHOOK_ENDPOINT_NOT_FOUND.'),
        },
      }),
    },
    '/admin/api/webhook-deliveries': {
      get: admin({
        operationId: 'adminListWebhookDeliveries',
        summary: 'Webhook deliveries with attempts, last status and error',
        parameters: queryParameters(WebhookDeliveryListQuerySchema),
        responses: {
          '200': { description: 'A page.', content: json(ref('WebhookDeliveryList')) },
          '400': error('VALIDATION_FAILED or INVALID_CURSOR.'),
        },
      }),
    },
    '/admin/api/webhook-deliveries/{delivery_id}/retry': {
      post: admin({
        operationId: 'adminRetryWebhookDelivery',
        summary: 'Deliver again now, with a fresh retry schedule',
        parameters: [deliveryId],
        responses: {
          '200': { description: 'The delivery, pending.', content: json(ref('WebhookDelivery')) },
          '404': error('WEBHOOK_DELIVERY_NOT_FOUND.'),
        },
      }),
    },
  },
};
