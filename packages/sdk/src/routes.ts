import type { Starsgate } from './client.js';

/**
 * Every public route of the gateway and the method that calls it. test/openapi-contract.test.ts
 * fails when /openapi.json has a public route missing here (or in the Python SDK's map).
 */
export const ROUTES = {
  'POST /api/v1/availability/check': 'checkAvailability',
  'GET /api/v1/prices': 'getPrices',
  'GET /api/v1/products': 'listProducts',
  'GET /api/v1/prices/quote': 'getQuote',
  'POST /api/v1/wallets/resolve': 'resolveWallet',
  'POST /api/v1/purchases': 'createPurchase',
  'GET /api/v1/purchases/{purchase_id}': 'getPurchase',
  'POST /api/v1/checkouts/ton-proof-payload': 'createTonProofPayload',
  'POST /api/v1/checkouts': 'createCheckout',
  'GET /api/v1/checkouts/{checkout_id}': 'getCheckout',
  'POST /api/v1/checkouts/{checkout_id}/submitted': 'submitCheckout',
} as const satisfies Record<string, keyof Starsgate>;
