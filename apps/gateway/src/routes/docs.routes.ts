import { Router, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';

/**
 * What Swagger UI needs and nothing more: its own scripts and stylesheet from this origin, inline
 * styles (its page template and React's `style` attributes), `data:` images from its stylesheet,
 * and fetches of `/openapi.json` and "Try it out" calls to this origin.
 */
const DOCS_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

const docsHeaders: RequestHandler = (_req, res, next) => {
  res.set(DOCS_HEADERS);
  next();
};

export function docsRoutes(document: object): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(
    '/docs',
    docsHeaders,
    swaggerUi.serve,
    // No validator badge: it would send the document's URL to validator.swagger.io (and the CSP refuses it).
    swaggerUi.setup(undefined, { swaggerOptions: { url: '/openapi.json', validatorUrl: null } }),
  );
  return router;
}
