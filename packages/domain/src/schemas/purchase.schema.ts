import { PURCHASE_STATUSES } from '../purchases/purchase-status';
import { amountByProductRule, PAYMENT_METHODS, PRODUCTS } from '../products';
import { decimalMoney } from './money.schema';
import {
  accountIndexField,
  idempotencyKeyField,
  orderProperties,
  seedField,
  walletAddressField,
  quantitiesField,
} from './common.schema';

export const CreatePurchaseRequestSchema = {
  $id: 'CreatePurchaseRequest',
  type: 'object',
  description: 'A server-signed purchase. Unknown fields are rejected (400 UNKNOWN_FIELD), never ignored.',
  required: ['product', 'username', 'payment_method', 'seed', 'idempotency_key'],
  additionalProperties: false,
  properties: {
    ...orderProperties,
    seed: seedField,
    wallet_address: walletAddressField,
    account_index: accountIndexField,
    idempotency_key: idempotencyKeyField,
  },
  allOf: amountByProductRule,
} as const;

export interface CreatePurchaseRequest {
  product: (typeof PRODUCTS)[number];
  username: string;
  /** A one-quantity product's quantity; a product with fields of its own sends those instead. */
  amount?: number;
  payment_method: string;
  seed: string;
  wallet_address?: string;
  account_index?: number;
  idempotency_key: string;
}

export const PurchaseAcceptedSchema = {
  $id: 'PurchaseAccepted',
  type: 'object',
  description: '202 means accepted, not delivered. Poll status_url until a terminal status.',
  required: ['purchase_id', 'status', 'status_url'],
  additionalProperties: false,
  properties: {
    purchase_id: { type: 'string', format: 'uuid' },
    status: {
      type: 'string',
      enum: [...PURCHASE_STATUSES],
      description: '`queued` for a new purchase; the current status on an idempotent replay.',
    },
    status_url: { type: 'string', description: 'Relative path `/api/v1/purchases/<purchase_id>`.' },
  },
} as const;

export const PurchaseErrorSchema = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: {
      type: 'string',
      description: 'Stable failure code, e.g. RECIPIENT_NOT_FOUND, TOP_UP_REQUIRED, NOT_EXECUTED.',
    },
    message: { type: 'string' },
    action: { type: 'string' },
    details: {
      type: 'array',
      description: 'TOP_UP_REQUIRED: one entry per currency with what the payer wallet needs, holds and lacks.',
      items: {
        type: 'object',
        additionalProperties: true,
        properties: {
          field: { type: 'string' },
          message: { type: 'string' },
          currency: { type: 'string', enum: ['GRAM', 'USDT'] },
          required: decimalMoney('What the purchase needs in `currency`, network fees included.'),
          available: decimalMoney('What the payer wallet holds in `currency`.'),
          shortfall: decimalMoney('What is missing in `currency` ("0" where covered).'),
        },
      },
    },
  },
} as const;

export const PurchaseSchema = {
  $id: 'Purchase',
  type: 'object',
  required: [
    'purchase_id',
    'status',
    'product',
    'username',
    'amount',
    'quantities',
    'payment_method',
    'created_at',
    'updated_at',
  ],
  additionalProperties: false,
  properties: {
    purchase_id: { type: 'string', format: 'uuid' },
    status: {
      type: 'string',
      enum: [...PURCHASE_STATUSES],
      description:
        'Only `completed` confirms delivery. `failed` and `reconciliation_required` are terminal too; never replace a `reconciliation_required` purchase automatically.',
    },
    product: { type: 'string', enum: [...PRODUCTS] },
    username: { type: 'string' },
    amount: { type: 'integer' },
    quantities: quantitiesField,
    payment_method: { type: 'string', enum: [...PAYMENT_METHODS] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    transaction_hash: {
      type: 'string',
      description: 'Present when completed: hash of the payer wallet transaction (hex).',
    },
    error: { ...PurchaseErrorSchema, description: 'Present when failed or reconciliation_required.' },
  },
} as const;
