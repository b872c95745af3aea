import {
  amountByProductRule,
  listedText,
  PRICE_LIST_PRODUCTS,
  productDescription,
  type PriceListEntry,
  type Product,
  PRODUCTS,
} from '../products';
import { productField, quantitiesField, quantityRequestProperties } from './common.schema';
import { decimalMoney } from './money.schema';

/** A price in both payment currencies, as exact decimal strings. */
export const PricePairSchema = {
  $id: 'PricePair',
  type: 'object',
  required: ['gram', 'usdt'],
  additionalProperties: false,
  properties: {
    gram: decimalMoney('GRAM (TON coin), up to 9 decimals, exactly as Fragment prices it. Keep it a string.'),
    usdt: decimalMoney('USDT, up to 6 decimals (Fragment prices in USD; 1 USDT = 1 USD). Keep it a string.'),
  },
} as const;

export const PriceQuoteQuerySchema = {
  $id: 'PriceQuoteQuery',
  type: 'object',
  description: 'Query parameters of GET /api/v1/prices/quote. Unknown parameters are rejected.',
  required: ['product'],
  additionalProperties: false,
  properties: {
    product: productField,
    ...quantityRequestProperties,
  },
  // Ajv applies `allOf` before `properties`: coerce the quantities to integers first, or the
  // product rule would compare the query string "6" with the numbers it allows.
  allOf: [
    {
      properties: Object.fromEntries(Object.keys(quantityRequestProperties).map((name) => [name, { type: 'integer' }])),
    },
    ...amountByProductRule,
  ],
} as const;

export interface PriceQuoteQuery {
  product: Product;
  /** A one-quantity product's quantity; a product with fields of its own sends those instead. */
  amount?: number;
}

export const PriceQuoteSchema = {
  $id: 'PriceQuote',
  type: 'object',
  description: 'Informational, not reserved: a fresh invoice is priced when a purchase starts.',
  required: ['product', 'amount', 'prices', 'stale', 'quoted_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    product: { type: 'string', enum: [...PRODUCTS] },
    amount: { type: 'integer' },
    quantities: quantitiesField,
    prices: { $ref: '#/components/schemas/PricePair' },
    stale: {
      type: 'boolean',
      description:
        'true when Fragment could not be asked just now and the last known (or a derived) price is returned.',
    },
    derived: {
      type: 'boolean',
      description:
        "true when Fragment never priced this exact quantity and the value was computed from the last known per-star USD price and TON rate with Fragment's own rounding (always stale).",
    },
    quoted_at: { type: 'string', format: 'date-time', description: 'When this answer was produced.' },
    updated_at: { type: 'string', format: 'date-time', description: 'When Fragment produced the underlying price.' },
  },
} as const;

/** The products GET /api/v1/prices lists, each with its part of the list (its pack's `priceList`). */
const priceListEntries = PRICE_LIST_PRODUCTS.map((product) => {
  const entry = productDescription(product).priceList;
  if (!entry) throw new Error(`${product} is not in the price list`);
  return { product, entry };
});

/** One listed product's property: its reference quantities, each a price pair. */
function priceListProperty(entry: PriceListEntry) {
  return {
    type: 'object',
    required: [...entry.quantities],
    additionalProperties: false,
    properties: Object.fromEntries(
      entry.quantities.map((quantity) => [quantity, { $ref: '#/components/schemas/PricePair' }]),
    ),
    ...(entry.description === undefined ? {} : { description: entry.description }),
  };
}

/** How GET /api/v1/prices names what it lists: each listed pack's `priceList.summary`. */
export const PRICE_LIST_SUMMARY = listedText(priceListEntries.map(({ entry }) => entry.summary));

export const PriceListSchema = {
  $id: 'PriceList',
  type: 'object',
  description: `Reference prices: ${PRICE_LIST_SUMMARY}. Informational, not reserved.`,
  required: [...PRICE_LIST_PRODUCTS, 'stale', 'updated_at'],
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(priceListEntries.map(({ product, entry }) => [product, priceListProperty(entry)])),
    stale: {
      type: 'boolean',
      description: 'true when the list is older than the refresh period allows because Fragment could not be asked.',
    },
    updated_at: { type: 'string', format: 'date-time', description: 'When Fragment produced these prices.' },
  },
} as const;

export interface PricePairBody {
  gram: string;
  usdt: string;
}
