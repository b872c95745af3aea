import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';

export function docsRoutes(document: object): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use('/docs', swaggerUi.serve, swaggerUi.setup(undefined, { swaggerOptions: { url: '/openapi.json' } }));
  return router;
}
