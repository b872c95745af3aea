import { AVAILABILITY_CODES } from '../availability/availability-texts';
import {
  amountByProductRule,
  PAYMENT_METHODS,
  PRODUCT_REJECTION_CODES,
  type PaymentMethod,
  type Product,
  PRODUCTS,
} from '../products';
import { orderProperties, quantitiesField } from './common.schema';

/** Wallet fields of the purchase request that an availability check never accepts. */
export const WALLET_FIELDS = [
  'seed',
  'wallet_address',
  'account_index',
  'mnemonic',
  'private_key',
  'payer_address',
] as const;

export const AvailabilityCheckRequestSchema = {
  $id: 'AvailabilityCheckRequest',
  type: 'object',
  description:
    'The order-shaped part of a purchase: no wallet, no idempotency key. Unknown fields are rejected (400 UNKNOWN_FIELD); a seed or wallet field is refused with a message saying wallets are not accepted here.',
  required: ['product', 'username', 'payment_method'],
  additionalProperties: false,
  properties: orderProperties,
  allOf: amountByProductRule,
} as const;

export interface AvailabilityCheckRequest {
  product: Product;
  username: string;
  /** A one-quantity product's quantity; a product with fields of its own sends those instead. */
  amount?: number;
  payment_method: string;
}

export const AvailabilityResultSchema = {
  $id: 'AvailabilityResult',
  type: 'object',
  description:
    'A point-in-time answer, not a reservation or a delivery guarantee. `available` is true only with code AVAILABLE. Repeat the check whenever product, username, amount or payment method changes.',
  required: ['available', 'code', 'message', 'action', 'product', 'username', 'amount', 'payment_method', 'checked_at'],
  additionalProperties: false,
  properties: {
    available: { type: 'boolean' },
    code: {
      type: 'string',
      enum: [...AVAILABILITY_CODES],
      description: `AVAILABLE; RECIPIENT_NOT_FOUND (no such user); RECIPIENT_INELIGIBLE (bot, channel, or a user who cannot receive it now); ${PRODUCT_REJECTION_CODES.map((code) => `${code}; `).join('')}PAYMENT_METHOD_UNAVAILABLE (switched off by the operator, or not offered for this product).`,
    },
    message: { type: 'string', description: 'Human text a shop can show.' },
    action: { type: 'string', description: 'What the shop should do next, as human text.' },
    product: { type: 'string', enum: [...PRODUCTS] },
    username: { type: 'string', description: 'As sent.' },
    amount: { type: 'integer' },
    quantities: quantitiesField,
    payment_method: { type: 'string', enum: [...PAYMENT_METHODS], description: 'Canonical form of the method sent.' },
    checked_at: {
      type: 'string',
      format: 'date-time',
      description:
        'When Fragment answered the recipient lookup this result rests on (answers are cached for seconds), or when the local payment-method rule was applied.',
    },
  },
} as const;

export interface AvailabilityResultBody {
  available: boolean;
  code: (typeof AVAILABILITY_CODES)[number];
  message: string;
  action: string;
  product: Product;
  username: string;
  amount: number;
  quantities?: Readonly<Record<string, number>>;
  payment_method: PaymentMethod;
  checked_at: string;
}
