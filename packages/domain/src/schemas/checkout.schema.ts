import { baseUnitMoney, gramAmount, usdtAmount } from './money.schema';
import { CHECKOUT_STATUSES } from '../purchases/checkout-status';
import { amountByProductRule, PAYMENT_METHODS, PRODUCTS } from '../products';
import { idempotencyKeyField, orderProperties, quantitiesField } from './common.schema';
import { PurchaseErrorSchema } from './purchase.schema';

/** Request fields that carry a wallet secret: a checkout refuses them (SEED_NOT_ACCEPTED) before anything else. */
export const SECRET_FIELDS = ['seed', 'mnemonic', 'private_key', 'secret_key'] as const;

export const CreateCheckoutRequestSchema = {
  $id: 'CreateCheckoutRequest',
  type: 'object',
  description:
    'A client-signed checkout: the buyer signs the prepared transaction in its own wallet, so no secret is ever sent. A `seed`, `mnemonic`, `private_key` or `secret_key` field is refused with 400 SEED_NOT_ACCEPTED; other unknown fields with 400 UNKNOWN_FIELD.',
  required: ['product', 'username', 'payment_method', 'payer_address', 'idempotency_key'],
  additionalProperties: false,
  properties: {
    ...orderProperties,
    payer_address: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: "The buyer's wallet (TON Connect `account.address`), friendly or raw form.",
    },
    payer_public_key: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{64}$',
      description:
        'TON Connect `account.publicKey` (64 hex). Required only when the payer wallet is not deployed yet (400 CHECKOUT_PAYER_KEY_REQUIRED otherwise); for a deployed wallet the key is read from the chain.',
    },
    payer_state_init: {
      type: 'string',
      minLength: 1,
      maxLength: 8192,
      pattern: '^[A-Za-z0-9+/_-]+={0,2}$',
      description:
        'TON Connect `account.walletStateInit` (Base64 BOC). Required with payer_public_key for a wallet not deployed yet; it must hash to payer_address (400 CHECKOUT_PAYER_STATE_INIT_MISMATCH).',
    },
    ton_proof: {
      type: 'object',
      description:
        "TON Connect's `ton_proof` reply for payer_address (`connectItems.tonProof.proof`), exactly as the wallet returned it, its payload from POST /api/v1/checkouts/ton-proof-payload. Required when the gateway sets TON_PROOF_REQUIRED (production): 400 CHECKOUT_PROOF_REQUIRED without it, 400 CHECKOUT_PROOF_INVALID when it does not prove the payer. With a proof, idempotency keys are scoped to the payer wallet; without one, to the client that sent the request.",
      required: ['timestamp', 'domain', 'payload', 'signature'],
      additionalProperties: false,
      properties: {
        timestamp: { type: 'integer', minimum: 0, description: 'Unix seconds when the wallet signed.' },
        domain: {
          type: 'object',
          required: ['lengthBytes', 'value'],
          additionalProperties: false,
          properties: {
            lengthBytes: { type: 'integer', minimum: 0, maximum: 253 },
            value: { type: 'string', minLength: 1, maxLength: 253 },
          },
        },
        payload: { type: 'string', minLength: 1, maxLength: 128 },
        signature: { type: 'string', minLength: 1, maxLength: 100, description: 'Base64 ed25519 signature.' },
      },
    },
    idempotency_key: idempotencyKeyField,
  },
  allOf: amountByProductRule,
} as const;

export const TonProofPayloadSchema = {
  $id: 'TonProofPayload',
  type: 'object',
  required: ['payload', 'expires_at'],
  additionalProperties: false,
  properties: {
    payload: {
      type: 'string',
      description: "What the wallet signs as TON Connect's ton_proof payload (`tonProof` connect item).",
    },
    expires_at: { type: 'string', format: 'date-time', description: 'A proof made with it must arrive before this.' },
  },
} as const;

export interface CreateCheckoutRequest {
  product: (typeof PRODUCTS)[number];
  username: string;
  /** A one-quantity product's quantity; a product with fields of its own sends those instead. */
  amount?: number;
  payment_method: string;
  payer_address: string;
  payer_public_key?: string;
  payer_state_init?: string;
  ton_proof?: {
    timestamp: number;
    domain: { lengthBytes: number; value: string };
    payload: string;
    signature: string;
  };
  idempotency_key: string;
}

export const SubmitCheckoutRequestSchema = {
  $id: 'SubmitCheckoutRequest',
  type: 'object',
  required: ['boc'],
  additionalProperties: false,
  properties: {
    boc: {
      type: 'string',
      minLength: 1,
      maxLength: 90_000,
      description: 'The signed external message, Base64, exactly as TON Connect `sendTransaction` returned it.',
    },
  },
} as const;

export interface SubmitCheckoutRequest {
  boc: string;
}

const checkoutStatusField = {
  type: 'string',
  enum: [...CHECKOUT_STATUSES],
  description:
    'preparing → awaiting_signature → submitted → confirming → completed; or failed, expired (nothing was paid before valid_until, checked on chain), reconciliation_required. Only `completed` confirms delivery.',
} as const;

export const CheckoutAcceptedSchema = {
  $id: 'CheckoutAccepted',
  type: 'object',
  description:
    '202 means accepted: poll status_url until `awaiting_signature`, then have the wallet sign `transaction`.',
  required: ['checkout_id', 'status', 'status_url'],
  additionalProperties: false,
  properties: {
    checkout_id: { type: 'string', format: 'uuid' },
    status: { ...checkoutStatusField, description: '`preparing` for a new checkout; the current status on a replay.' },
    status_url: { type: 'string', description: 'Relative path `/api/v1/checkouts/<checkout_id>`.' },
  },
} as const;

const tonConnectMessageSchema = {
  type: 'object',
  required: ['address', 'amount'],
  additionalProperties: false,
  properties: {
    address: {
      type: 'string',
      description:
        "Friendly address; its bounce flag is the message's. GRAM: Fragment's receiving address. USDT: the payer's own USDT jetton wallet.",
    },
    amount: baseUnitMoney('nanoGRAM the message carries (USDT: the GRAM attached for forwarding fees).'),
    payload: {
      type: 'string',
      description: "Base64 BOC of the body: Fragment's Ref# comment (GRAM) or a TEP-74 jetton `transfer` (USDT).",
    },
    stateInit: { type: 'string', description: 'Base64 BOC of a StateInit (never set by starsgate today).' },
  },
} as const;

export const TonConnectTransactionSchema = {
  $id: 'TonConnectTransaction',
  type: 'object',
  description: 'A TON Connect `sendTransaction` request: hand it to `tonConnectUI.sendTransaction` unchanged.',
  required: ['validUntil', 'network', 'from', 'messages'],
  additionalProperties: false,
  properties: {
    validUntil: { type: 'integer', description: 'Unix seconds; the wallet must sign before it.' },
    network: { type: 'string', enum: ['-239', '-3'], description: '`-239` mainnet, `-3` testnet.' },
    from: { type: 'string', description: 'The payer wallet, raw form (`0:hex`).' },
    messages: { type: 'array', minItems: 1, maxItems: 1, items: tonConnectMessageSchema },
  },
} as const;

export const CheckoutSchema = {
  $id: 'Checkout',
  type: 'object',
  required: [
    'checkout_id',
    'status',
    'product',
    'username',
    'amount',
    'quantities',
    'payment_method',
    'payer_address',
    'created_at',
    'updated_at',
  ],
  additionalProperties: false,
  properties: {
    checkout_id: { type: 'string', format: 'uuid' },
    status: checkoutStatusField,
    product: { type: 'string', enum: [...PRODUCTS] },
    username: { type: 'string' },
    amount: { type: 'integer' },
    quantities: quantitiesField,
    payment_method: { type: 'string', enum: [...PAYMENT_METHODS] },
    payer_address: { type: 'string', description: 'The payer wallet, raw form.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    valid_until: {
      type: 'string',
      format: 'date-time',
      description: 'Once prepared: the wallet must sign (and the BOC be submitted) before this time.',
    },
    prices: {
      type: 'object',
      description: 'Once prepared: what this transaction pays, exact decimal string, in its currency only.',
      additionalProperties: false,
      properties: {
        gram: gramAmount('GRAM this transaction pays.'),
        usdt: usdtAmount('USDT this transaction pays.'),
      },
    },
    transaction: { $ref: '#/components/schemas/TonConnectTransaction' },
    transaction_hash: { type: 'string', description: 'Present when completed: the payer wallet transaction (hex).' },
    error: { ...PurchaseErrorSchema, description: 'Present when failed, expired or reconciliation_required.' },
  },
} as const;
