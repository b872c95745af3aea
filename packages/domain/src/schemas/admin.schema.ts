import { baseUnitMoney } from './money.schema';
import { PAYMENT_METHODS, PRODUCTS, type PaymentMethod, type Product } from '../products';
import { CHECKOUT_STATUSES } from '../purchases/checkout-status';
import {
  PURCHASE_MODES,
  PURCHASE_STATUSES,
  SERVER_SIGNED_LIFECYCLE,
  type PurchaseMode,
  type PurchaseStatus,
} from '../purchases/purchase-status';
import { PurchaseSchema } from './purchase.schema';

/** A money field that an operator view may not have yet. */
const nullable = <T extends { type: string }>(schema: T) => ({ ...schema, type: [schema.type, 'null'] }) as const;

/** Event types an endpoint may subscribe to: each status of a purchase, and of a checkout. */
export const WEBHOOK_EVENT_TYPES = [
  ...SERVER_SIGNED_LIFECYCLE.statuses.map((status) => `purchase.${status}`),
  ...CHECKOUT_STATUSES.map((status) => `checkout.${status}`),
];
export const WEBHOOK_DELIVERY_STATE_VALUES = ['pending', 'delivered', 'failed'] as const;

const limitField = { type: 'integer', minimum: 1, maximum: 200, description: 'Page size, 1 to 200 (default 50).' };
const cursorField = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'Opaque: `next_cursor` of the previous page, with the same filters.',
};
const operatorField = { type: 'string', minLength: 1, maxLength: 100, description: 'Who acts (audited).' };
const reasonField = { type: 'string', minLength: 1, maxLength: 2000, description: 'Why (audited).' };

export const AdminPurchaseListQuerySchema = {
  $id: 'AdminPurchaseListQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...PURCHASE_STATUSES] },
    mode: {
      type: 'string',
      enum: [...PURCHASE_MODES],
      description: '`server_signed`: purchases; `client_signed`: checkouts. Both when absent.',
    },
    product: { type: 'string', enum: [...PRODUCTS] },
    payment_method: { type: 'string', enum: [...PAYMENT_METHODS] },
    username: { type: 'string', pattern: '^@?[A-Za-z0-9_]{1,32}$', description: 'With or without `@`; any case.' },
    wallet_address: { type: 'string', minLength: 1, maxLength: 100, description: 'Payer wallet, friendly or raw.' },
    idempotency_key: { type: 'string', minLength: 1, maxLength: 128 },
    created_from: { type: 'string', format: 'date-time', description: 'Inclusive.' },
    created_to: { type: 'string', format: 'date-time', description: 'Exclusive.' },
    limit: limitField,
    cursor: cursorField,
  },
} as const;

export interface AdminPurchaseListQuery {
  status?: PurchaseStatus;
  mode?: PurchaseMode;
  product?: Product;
  payment_method?: PaymentMethod;
  username?: string;
  wallet_address?: string;
  idempotency_key?: string;
  created_from?: string;
  created_to?: string;
  limit?: number;
  cursor?: string;
}

export const ResolvePurchaseRequestSchema = {
  $id: 'ResolvePurchaseRequest',
  type: 'object',
  required: ['outcome', 'reason', 'operator'],
  additionalProperties: false,
  properties: {
    outcome: { type: 'string', enum: ['completed', 'failed'] },
    reason: reasonField,
    operator: operatorField,
    transaction_hash: {
      type: 'string',
      pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$',
      description:
        "Required for `completed`: the payer wallet transaction that paid this purchase's Fragment request (hex or Base64).",
    },
  },
  allOf: [
    {
      if: { properties: { outcome: { const: 'completed' } }, required: ['outcome'] },
      then: { properties: { transaction_hash: true }, required: ['transaction_hash'] },
    },
  ],
} as const;

export interface ResolvePurchaseRequest {
  outcome: 'completed' | 'failed';
  reason: string;
  operator: string;
  transaction_hash?: string;
}

export const CreateWebhookEndpointRequestSchema = {
  $id: 'CreateWebhookEndpointRequest',
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      description: 'https (http only to loopback unless WEBHOOK_ALLOW_HTTP=true).',
    },
    description: { type: 'string', maxLength: 500 },
    events: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
      description: 'Event types to receive; all when absent.',
    },
  },
} as const;

export interface CreateWebhookEndpointRequest {
  url: string;
  description?: string;
  events?: string[];
}

export const WebhookDeliveryListQuerySchema = {
  $id: 'WebhookDeliveryListQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    endpoint_id: { type: 'string', format: 'uuid' },
    state: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATE_VALUES] },
    limit: limitField,
    cursor: cursorField,
  },
} as const;

export interface WebhookDeliveryListQuery {
  endpoint_id?: string;
  state?: (typeof WEBHOOK_DELIVERY_STATE_VALUES)[number];
  limit?: number;
  cursor?: string;
}

const nullableString = { type: ['string', 'null'] } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

export const AdminPurchaseSummarySchema = {
  $id: 'AdminPurchaseSummary',
  type: 'object',
  description: 'The public purchase plus what an operator searches by.',
  required: [...PurchaseSchema.required, 'mode', 'idempotency_key', 'wallet_address', 'version'],
  properties: {
    ...PurchaseSchema.properties,
    mode: {
      type: 'string',
      enum: [...PURCHASE_MODES],
      description: '`server_signed`: a purchase; `client_signed`: a checkout (its `purchase_id` is the `checkout_id`).',
    },
    idempotency_key: { type: 'string' },
    wallet_address: { ...nullableString, description: 'Payer wallet (raw form) once known.' },
    version: { type: 'integer', description: 'Row version: grows with every change.' },
    completed_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const;

export const AdminPurchaseDetailSchema = {
  $id: 'AdminPurchaseDetail',
  type: 'object',
  required: [...AdminPurchaseSummarySchema.required, 'events', 'evidence', 'waiting_on_lookalikes', 'waiting_reason'],
  properties: {
    ...AdminPurchaseSummarySchema.properties,
    wallet_version: nullableString,
    fragment_request_id: nullableString,
    fragment_ref: nullableString,
    waiting_on_lookalikes: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Ids of our identical paid orders (same recipient, product and quantity, on the same Fragment account) not completed yet: the history tells identical orders apart by count only, so this one waits until they are listed too. Empty unless the purchase is confirming (or went to reconciliation from there).',
    },
    waiting_reason: {
      ...nullableString,
      description:
        'Why a paid purchase is still waiting, for people: "waiting on look-alike <id>[, <id>…]", or that Fragment has not listed the delivery yet. Null when it is not waiting on Fragment.',
    },
    fragment_session: { ...nullableString, description: 'Label of the Fragment login session that created the order.' },
    fragment_from: {
      ...nullableString,
      description:
        'The wallet Fragment named as `transaction.from` in its payment request (raw form): the payer, or the wallet linked to the Fragment account. Null before the request was accepted.',
    },
    fragment_from_is_payer: {
      type: ['boolean', 'null'],
      description:
        "Whether `fragment_from` is the paying wallet. When false the payer paid Fragment's request anyway (a USDT transfer went through the payer's own jetton wallet).",
    },
    paid_amount: {
      type: ['object', 'null'],
      description: 'What Fragment asked to be paid: currency and base-unit amounts (decimal strings).',
      properties: {
        currency: { type: 'string' },
        quote: nullable(baseUnitMoney('The invoice in base units of `currency` (nanoGRAM or micro-USDT).')),
        quote_human: { ...nullableString, description: '`quote` for people: "0.4412 GRAM", "0.75 USDT".' },
        message_nano: nullable(baseUnitMoney('nanoGRAM the payment message carries.')),
        message_human: { ...nullableString, description: '`message_nano` for people: "0.4412 GRAM".' },
        jetton_units: nullable(baseUnitMoney('USDT base units the jetton transfer moves.')),
        jetton_human: { ...nullableString, description: '`jetton_units` for people: "0.75 USDT".' },
        receiver: { type: 'string' },
      },
    },
    normalized_hash: { ...nullableString, description: 'TEP-467 normalized hash of the signed external (hex).' },
    external_hash: { ...nullableString, description: 'Hash of the signed external message as broadcast (hex).' },
    seqno: { type: ['integer', 'null'] },
    valid_until: { type: ['integer', 'null'] },
    transaction_lt: nullableString,
    attempt: { type: 'integer' },
    next_run_at: dateTime,
    evidence: { type: ['object', 'null'], description: 'What the worker and the evidence collector gathered.' },
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['at', 'type', 'from_status', 'to_status', 'actor', 'details'],
        properties: {
          at: dateTime,
          type: { type: 'string', description: '`transition`, `step` (same status) or `operator`.' },
          from_status: nullableString,
          to_status: { type: 'string' },
          actor: { type: 'string' },
          reason: nullableString,
          details: {},
        },
      },
    },
  },
} as const;

export const AdminPurchaseListSchema = {
  $id: 'AdminPurchaseList',
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: { $ref: '#/components/schemas/AdminPurchaseSummary' } },
    next_cursor: { ...nullableString, description: 'Null at the end.' },
  },
} as const;

const queueCounts = {
  type: 'object',
  properties: {
    waiting: { type: 'integer' },
    active: { type: 'integer' },
    delayed: { type: 'integer' },
    failed: { type: 'integer' },
  },
} as const;

export const AdminStatsSchema = {
  $id: 'AdminStats',
  type: 'object',
  required: ['counts', 'oldest_age_seconds', 'reconciliation', 'last_hour', 'queues', 'upstream_format_errors'],
  properties: {
    counts: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Purchases by status.' },
    oldest_age_seconds: {
      type: 'object',
      additionalProperties: { type: 'number' },
      description: 'Per non-terminal status: how long its oldest purchase has been in it.',
    },
    reconciliation: {
      type: 'object',
      properties: { open: { type: 'integer' }, oldest_age_seconds: { type: ['number', 'null'] } },
    },
    last_hour: {
      type: 'object',
      properties: { completed: { type: 'integer' }, failed: { type: 'integer' } },
    },
    queues: { type: 'object', additionalProperties: queueCounts, description: 'BullMQ job counts per queue.' },
    upstream_format_errors: {
      type: 'array',
      description:
        'Upstream answers of a shape the service cannot read (e.g. a Fragment history page whose markup changed), one entry per source and session, newest first. Any entry means delivery proof from that source is not working.',
      items: {
        type: 'object',
        required: ['source', 'session_id', 'problem', 'occurrences', 'first_seen_at', 'last_seen_at'],
        properties: {
          source: { type: 'string' },
          session_id: { type: 'string', description: 'A non-secret name of the Fragment login.' },
          problem: { type: 'string' },
          occurrences: { type: 'integer' },
          first_seen_at: dateTime,
          last_seen_at: dateTime,
        },
      },
    },
  },
} as const;

export const WebhookEndpointSchema = {
  $id: 'WebhookEndpoint',
  type: 'object',
  required: ['id', 'url', 'events', 'created_at', 'secrets'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string' },
    description: nullableString,
    events: { type: ['array', 'null'], items: { type: 'string' }, description: 'Null: every event type.' },
    created_at: dateTime,
    secrets: {
      type: 'array',
      description: 'Masked: the valid secrets, newest first; a rotated-out one with when it stops signing.',
      items: {
        type: 'object',
        properties: { hint: { type: 'string' }, expires_at: { type: ['string', 'null'], format: 'date-time' } },
      },
    },
  },
} as const;

export const WebhookEndpointWithSecretSchema = {
  $id: 'WebhookEndpointWithSecret',
  type: 'object',
  required: [...WebhookEndpointSchema.required, 'secret'],
  properties: {
    ...WebhookEndpointSchema.properties,
    secret: { type: 'string', description: 'The signing secret: shown only in this response.' },
  },
} as const;

export const WebhookDeliverySchema = {
  $id: 'WebhookDelivery',
  type: 'object',
  required: ['id', 'endpoint_id', 'event_id', 'event_type', 'purchase_id', 'sequence', 'state', 'attempts'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    endpoint_id: { type: 'string', format: 'uuid' },
    event_id: { type: 'string', format: 'uuid' },
    event_type: { type: 'string' },
    purchase_id: { type: 'string', format: 'uuid' },
    sequence: { type: 'integer' },
    state: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATE_VALUES] },
    attempts: { type: 'integer' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    last_status: { type: ['integer', 'null'], description: 'HTTP status of the last attempt (null: no answer).' },
    last_error: nullableString,
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: dateTime,
  },
} as const;

export const WebhookDeliveryListSchema = {
  $id: 'WebhookDeliveryList',
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: { $ref: '#/components/schemas/WebhookDelivery' } },
    next_cursor: nullableString,
  },
} as const;
