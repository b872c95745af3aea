import {
  ACCOUNT_INDEX_MAX,
  ACCOUNT_INDEX_MIN,
  AMOUNT_DESCRIPTION,
  QUANTITY_FIELD_DESCRIPTION,
  QUANTITY_REQUEST_FIELDS,
  IDEMPOTENCY_KEY_PATTERN,
  PAYMENT_METHOD_ALIASES,
  PAYMENT_METHOD_RESTRICTIONS,
  PRODUCT_DESCRIPTION,
  PRODUCT_REGISTRY,
  PRODUCTS,
  USERNAME_PATTERN,
} from '../products';

/** Field schemas shared by every order-shaped request (purchases, availability, checkouts). */
export const productField = { type: 'string', enum: [...PRODUCTS], description: PRODUCT_DESCRIPTION } as const;
export const usernameField = {
  type: 'string',
  pattern: USERNAME_PATTERN,
  description: 'Recipient: `@` followed by 1 to 32 letters, digits or underscores.',
  examples: ['@alice'],
} as const;
export const amountField = {
  type: 'integer',
  description: AMOUNT_DESCRIPTION,
} as const;
export const paymentMethodField = {
  type: 'string',
  enum: Object.keys(PAYMENT_METHOD_ALIASES),
  description: `\`gram\` or \`usdt\`. The aliases \`ton\` (gram), \`usdt_ton\` and \`usdt_gram\` (usdt) are accepted and stored in canonical form. ${PAYMENT_METHOD_RESTRICTIONS} Another method for such a product: 400 PAYMENT_METHOD_UNAVAILABLE (availability: code PAYMENT_METHOD_UNAVAILABLE).`,
} as const;
export const idempotencyKeyField = {
  type: 'string',
  pattern: IDEMPOTENCY_KEY_PATTERN,
  description:
    "1 to 128 printable ASCII characters; one key per logical order. Scoped to the payer (a purchase's seed, a checkout's payer_address): another payer's key of the same string is a different order, never a conflict or a replay. Use a random key (a UUID) stored with the order.",
} as const;
export const accountIndexField = {
  type: 'integer',
  minimum: ACCOUNT_INDEX_MIN,
  maximum: ACCOUNT_INDEX_MAX,
  description: "Selects the V5R1 account m/44'/607'/{account_index}' of a 12-word seed (0 to 100).",
} as const;
export const walletAddressField = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'Payer wallet, friendly (EQ…/UQ…) or raw (0:hex) form. Finds or verifies the account of a 12-word seed.',
} as const;
export const seedField = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  writeOnly: true,
  description:
    'Wallet secret: 12-word BIP39 mnemonic, 24-word TON mnemonic, or canonical Base64 of a 32-byte ed25519 private key. Send only from a trusted backend. Encrypted at rest, destroyed when the purchase ends, never logged.',
} as const;

/** `{"winners": 10, "months": 3}`: an example's quantities as the API's descriptions show them. */
function quantitiesText(quantities: Readonly<Record<string, number>>): string {
  return `{${Object.entries(quantities)
    .map(([name, value]) => `"${name}": ${value}`)
    .join(', ')}}`;
}

/** The order line's quantities by name, in responses and webhooks (`amount` stays beside them). */
export const quantitiesField = {
  type: 'object',
  description: `The order line's quantities by name: ${PRODUCTS.map((product) => `\`${quantitiesText(PRODUCT_REGISTRY[product].example)}\``).join(', ')} (GET /api/v1/products names each product's).`,
  additionalProperties: { type: 'integer' },
  examples: [PRODUCT_REGISTRY[PRODUCTS[0]].example],
} as const;

/**
 * The request fields that carry quantities (`amount`; a product with several quantities names its
 * own, e.g. a giveaway's `winners` and `months`): integers, held to their product's rules by
 * `amountByProductRule`.
 */
export const quantityRequestProperties = Object.fromEntries(
  QUANTITY_REQUEST_FIELDS.map((name) => [
    name,
    name === 'amount' ? amountField : { type: 'integer', description: `${QUANTITY_FIELD_DESCRIPTION} (\`${name}\`).` },
  ]),
) as { amount: typeof amountField } & Record<string, { type: 'integer'; description: string }>;

/** The order itself: what purchases, checkouts and availability checks all describe. */
export const orderProperties = {
  product: productField,
  username: usernameField,
  ...quantityRequestProperties,
  payment_method: paymentMethodField,
} as const;
