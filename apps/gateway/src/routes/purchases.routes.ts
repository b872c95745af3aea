import { Router } from 'express';
import { AppError, CreatePurchaseRequestSchema, createValidator, type CreatePurchaseRequest } from '@starsgate/domain';
import { createPurchase, type CreatePurchaseDeps } from '../purchases/create-purchase';
import { acceptedView, purchaseView } from '../purchases/purchase-view';
import type { PurchaseViewReader } from '../purchases/purchase-view-reader';

const validateCreatePurchase = createValidator<CreatePurchaseRequest>(CreatePurchaseRequestSchema);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function purchasesRoutes(deps: CreatePurchaseDeps & { views: PurchaseViewReader }): Router {
  const router = Router();

  router.post('/api/v1/purchases', async (req, res) => {
    const input = validateCreatePurchase(req.body);
    const { purchase, replayed } = await createPurchase(deps, input, { requestId: req.id, log: req.log });
    req.log.info(replayed ? 'purchase replayed' : 'purchase accepted', {
      purchase_id: purchase.id,
      idempotency_key: input.idempotency_key,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).location(acceptedView(purchase).status_url).json(acceptedView(purchase));
  });

  router.get('/api/v1/purchases/:purchase_id', async (req, res) => {
    const id = req.params.purchase_id;
    const purchase = UUID.test(id) ? await deps.views.findViewById(id.toLowerCase()) : undefined;
    // A checkout is a row of the same table, read only through /api/v1/checkouts.
    if (!purchase || purchase.mode !== 'server_signed')
      throw AppError.field('PURCHASE_NOT_FOUND', 'purchase_id', 'No purchase with this id exists in this environment.');
    res.json(purchaseView(purchase));
  });

  return router;
}
