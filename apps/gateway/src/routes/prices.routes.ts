import { Router } from 'express';
import {
  AppError,
  PRICE_LIST_PRODUCTS,
  PriceQuoteQuerySchema,
  createValidator,
  orderLineFromRequest,
  productCatalog,
  type PriceQuoteQuery,
} from '@starsgate/domain';
import { PricesUnavailableError, type PriceBook } from '@starsgate/fragment';

const validateQuoteQuery = createValidator<PriceQuoteQuery>(PriceQuoteQuerySchema, { coerceTypes: true });
const validateListQuery = createValidator<Record<string, never>>(
  { $id: 'PriceListQuery', type: 'object', additionalProperties: false, properties: {} },
  { coerceTypes: true },
);

export interface PricesRouteDeps {
  prices: PriceBook;
}

const RETRY_AFTER_SECONDS = 5;

function unavailable(error: unknown): unknown {
  return error instanceof PricesUnavailableError
    ? new AppError('PRICES_UNAVAILABLE', { retryAfterSeconds: RETRY_AFTER_SECONDS })
    : error;
}

export function pricesRoutes(deps: PricesRouteDeps): Router {
  const router = Router();

  router.get('/api/v1/prices', async (req, res) => {
    validateListQuery({ ...req.query });
    const list = await deps.prices.list().catch((error: unknown) => {
      throw unavailable(error);
    });
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      ...Object.fromEntries(PRICE_LIST_PRODUCTS.map((product) => [product, list.byProduct[product]])),
      stale: list.stale,
      updated_at: new Date(list.updatedAt).toISOString(),
    });
  });

  // The registry served: each product's fields and limits, payment methods, recipient kind, and
  // its reference prices. Prices Fragment cannot give yet leave `prices` empty, never the catalog.
  router.get('/api/v1/products', async (req, res) => {
    validateListQuery({ ...req.query });
    const list = await deps.prices.list().catch((error: unknown) => {
      if (error instanceof PricesUnavailableError) return undefined;
      throw error;
    });
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      products: productCatalog(),
      prices: list?.byProduct ?? {},
      stale: list?.stale ?? true,
      ...(list ? { updated_at: new Date(list.updatedAt).toISOString() } : {}),
    });
  });

  router.get('/api/v1/prices/quote', async (req, res) => {
    const query = validateQuoteQuery({ ...req.query });
    const line = orderLineFromRequest(query.product, '', query);
    const quote = await deps.prices.quote(query.product, line.quantities).catch((error: unknown) => {
      throw unavailable(error);
    });
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      product: quote.product,
      amount: quote.amount,
      quantities: line.quantities,
      prices: quote.prices,
      stale: quote.stale,
      derived: quote.derived,
      quoted_at: new Date().toISOString(),
      updated_at: new Date(quote.updatedAt).toISOString(),
    });
  });

  return router;
}
