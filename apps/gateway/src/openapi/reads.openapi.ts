import {
  AvailabilityCheckRequestSchema,
  AvailabilityResultSchema,
  PriceListSchema,
  ProductCatalogSchema,
  ProductFieldSchema,
  ProductSchema,
  PricePairSchema,
  PriceQuoteSchema,
  AMOUNT_DESCRIPTION,
  listedText,
  PRICE_LIST_PRODUCTS,
  PRICE_LIST_SUMMARY,
  PRODUCT_REGISTRY,
  PRODUCTS,
} from '@starsgate/domain';
import { CLIENT_ERRORS, type OpenApiContribution } from './openapi-document';

/** The titles of the products GET /api/v1/prices lists. */
const PRICE_LISTED_TITLES = listedText(PRICE_LIST_PRODUCTS.map((product) => PRODUCT_REGISTRY[product].title));

/** Every route that counts requests in Redis (the rate limit) answers this while Redis cannot be reached. */
const SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE: Redis cannot be reached.';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorBody = json(ref('ErrorBody'));

const INFORMATIONAL =
  'Prices are informational and NOT reserved: Fragment prices a fresh invoice when a purchase starts, and the GRAM figure moves with the TON rate.';
const ROUNDING =
  "Amounts are exact decimal strings computed in integer units (GRAM 9 decimals, USDT 6). Fragment's own figures are passed through unrounded: its GRAM price (≤ 4 decimals) and its USD price as USDT (1:1). Only a `derived` quote is computed, with Fragment's rule (USD linear in the quantity, GRAM = USD ÷ TON rate rounded UP to 4 decimals), so it is never below what Fragment would charge at that rate.";

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait (also `retry_after` in the body).', schema: { type: 'integer' } },
};

export const readsOpenApi: OpenApiContribution = {
  schemas: [
    AvailabilityCheckRequestSchema,
    AvailabilityResultSchema,
    PricePairSchema,
    PriceListSchema,
    ProductCatalogSchema,
    ProductFieldSchema,
    ProductSchema,
    PriceQuoteSchema,
  ],
  paths: {
    '/api/v1/availability/check': {
      post: {
        operationId: 'checkAvailability',
        summary: 'Can this recipient receive this product, paid this way?',
        description: [
          'A point-in-time check, not a reservation or delivery guarantee: repeat it whenever product, username, amount or payment method changes. No wallet is needed or accepted (a `seed` or wallet field is refused with 400 UNKNOWN_FIELD). No invoice is created.',
          '',
          'Answers are cached for seconds (positive and negative answers with their own TTLs) and identical concurrent checks share one Fragment lookup; `checked_at` is when Fragment answered. A payment method the operator switched off answers PAYMENT_METHOD_UNAVAILABLE without asking Fragment.',
          '',
          'When Fragment cannot answer the service says so (503) and never guesses `available: true`.',
        ].join('\n'),
        requestBody: { required: true, content: json(ref('AvailabilityCheckRequest')) },
        responses: {
          '200': {
            description:
              '`available` true only with code AVAILABLE; otherwise the rejection code, with human `message` and `action`.',
            content: json(ref('AvailabilityResult')),
          },
          '400': CLIENT_ERRORS['400'],
          '413': CLIENT_ERRORS['413'],
          '415': CLIENT_ERRORS['415'],
          '429': {
            description:
              "RATE_LIMITED (per client) or AVAILABILITY_RATE_LIMITED (the budget of Fragment lookups protecting the operator's account is spent, or Fragment asked us to slow down). Wait `retry_after` seconds.",
            headers: RETRY_AFTER,
            content: errorBody,
          },
          '503': {
            description: `AVAILABILITY_TEMPORARILY_UNAVAILABLE: Fragment cannot answer (timeout, 5xx, session problem). ${SERVICE_UNAVAILABLE} Keep payment disabled and retry later.`,
            headers: RETRY_AFTER,
            content: errorBody,
          },
        },
      },
    },
    '/api/v1/prices': {
      get: {
        operationId: 'getPrices',
        summary: `Reference prices: ${PRICE_LIST_SUMMARY}`,
        description: `${INFORMATIONAL}\n\nKept warm by the worker. \`stale: true\` means Fragment could not refresh the list in time and the last known prices are shown; \`updated_at\` says when Fragment produced them. No query parameters (unknown ones are 400).\n\n${ROUNDING}`,
        responses: {
          '200': { description: 'The price list.', content: json(ref('PriceList')) },
          '400': CLIENT_ERRORS['400'],
          '429': CLIENT_ERRORS['429'],
          '503': {
            description: `PRICES_UNAVAILABLE: no price was ever fetched and Fragment cannot answer now. ${SERVICE_UNAVAILABLE} Retry later.`,
            headers: RETRY_AFTER,
            content: errorBody,
          },
        },
      },
    },
    '/api/v1/products': {
      get: {
        operationId: 'listProducts',
        summary: 'Every product sold: its fields and limits, payment methods, recipient kind and reference prices',
        description: `The product registry served, so a client builds its order form from it; \`prices\` is each product's reference price list (as GET /api/v1/prices gives ${PRICE_LISTED_TITLES}). ${INFORMATIONAL} When no price was ever fetched and Fragment cannot answer, \`prices\` is empty and \`stale\` true: the catalog itself is always served. No query parameters (unknown ones are 400).`,
        responses: {
          '200': { description: 'The catalog.', content: json(ref('ProductCatalog')) },
          '400': CLIENT_ERRORS['400'],
          '429': CLIENT_ERRORS['429'],
        },
      },
    },
    '/api/v1/prices/quote': {
      get: {
        operationId: 'getPriceQuote',
        summary: 'Exact price of an order of any product, at the quantities it names',
        description: `${INFORMATIONAL}\n\nEach product's price is read where Fragment names it (its price for that quantity, or its page's options), cached briefly; a product priced at face value needs no Fragment call. When Fragment fails the last known quote is returned with \`stale: true\`; for a quantity Fragment never priced, of a product priced per unit, a \`derived\` quote from the last known per-unit price and TON rate (also stale).\n\n${ROUNDING}`,
        parameters: [
          { name: 'product', in: 'query', required: true, schema: { type: 'string', enum: [...PRODUCTS] } },
          {
            name: 'amount',
            in: 'query',
            required: true,
            description: AMOUNT_DESCRIPTION,
            schema: { type: 'integer' },
          },
        ],
        responses: {
          '200': { description: 'The quote.', content: json(ref('PriceQuote')) },
          '400': CLIENT_ERRORS['400'],
          '429': CLIENT_ERRORS['429'],
          '503': {
            description: `PRICES_UNAVAILABLE: nothing known and Fragment cannot answer now. ${SERVICE_UNAVAILABLE} Retry later.`,
            headers: RETRY_AFTER,
            content: errorBody,
          },
        },
      },
    },
  },
};
