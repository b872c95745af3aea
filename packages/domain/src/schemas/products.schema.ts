import { listedText, PAYMENT_METHODS, productDescription, PRODUCTS } from '../products';

/** The products whose quantity is sent as `amount`, listed for the field's description. */
const AMOUNT_PRODUCTS = listedText(
  PRODUCTS.filter((product) =>
    productDescription(product).quantities.every((field) => field.requestField === 'amount'),
  ),
);

/** One request field that carries a quantity of a product's order line. */
export const ProductFieldSchema = {
  $id: 'ProductField',
  type: 'object',
  required: ['name', 'quantity', 'type'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', description: `The request field (\`amount\` for ${AMOUNT_PRODUCTS}).` },
    quantity: { type: 'string', description: 'The quantity it carries, as named in `quantities`.' },
    type: { type: 'string', enum: ['integer'] },
    minimum: { type: 'integer' },
    maximum: { type: 'integer' },
    choices: { type: 'array', items: { type: 'integer' }, description: 'The only values accepted.' },
  },
} as const;

export const ProductSchema = {
  $id: 'Product',
  type: 'object',
  required: ['product', 'title', 'recipient_kind', 'payment_methods', 'pricing', 'fields'],
  additionalProperties: false,
  properties: {
    product: { type: 'string', enum: [...PRODUCTS] },
    title: { type: 'string' },
    recipient_kind: {
      type: 'string',
      enum: ['user', 'channel'],
      description: '`user`: a personal account `@alice`; `channel`: a channel `@channel`.',
    },
    payment_methods: { type: 'array', items: { type: 'string', enum: [...PAYMENT_METHODS] } },
    pricing: {
      type: 'string',
      enum: ['quoted', 'face_value'],
      description:
        '`quoted`: Fragment prices it (ask /api/v1/prices/quote); `face_value`: the quantity is the price in GRAM.',
    },
    fields: { type: 'array', items: { $ref: '#/components/schemas/ProductField' } },
  },
} as const;

export const ProductCatalogSchema = {
  $id: 'ProductCatalog',
  type: 'object',
  description: 'Every product sold, with its request fields and their limits, and its reference prices.',
  required: ['products', 'prices', 'stale'],
  additionalProperties: false,
  properties: {
    products: { type: 'array', items: { $ref: '#/components/schemas/Product' } },
    prices: {
      type: 'object',
      description:
        "Reference prices by product, then by quantity (each product's reference quantities; a product priced at face value: 1 GRAM's worth). Informational, not reserved.",
      additionalProperties: { type: 'object', additionalProperties: { $ref: '#/components/schemas/PricePair' } },
    },
    stale: {
      type: 'boolean',
      description:
        'true when the prices are older than the refresh period allows because Fragment could not be asked; with `prices` empty (and no `updated_at`) when no price was ever fetched.',
    },
    updated_at: { type: 'string', format: 'date-time', description: 'When Fragment produced these prices.' },
  },
} as const;
