import { Router, type IRouter } from 'express';
import type { Logger } from '@starsgate/platform';
import { AppError, CreatePurchaseRequestSchema, createValidator, type CreatePurchaseRequest } from '@starsgate/domain';
import { sendAccepted } from '../intake/send-accepted';
import { createPurchase, type CreatePurchaseDeps } from '../purchases/create-purchase';
import { acceptedView, purchaseView } from '../purchases/purchase-view';
import type { PurchaseViewReader } from '../purchases/purchase-view-reader';
import { levelEnabled } from '../http/level-enabled';
import { sendJson } from '../http/send-json';

const validateCreatePurchase = createValidator<CreatePurchaseRequest>(CreatePurchaseRequestSchema);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Registers on `router`; app.ts passes the app itself, so the hottest routes skip a nested
 * router's dispatch. `logger` answers whether `info` is on before a request logger is built.
 */
export function purchasesRoutes(
  deps: CreatePurchaseDeps & { views: PurchaseViewReader; logger: Logger },
  router: IRouter = Router(),
): IRouter {
  const infoEnabled = levelEnabled(deps.logger, 'info');
  router.post('/api/v1/purchases', async (req, res) => {
    const input = validateCreatePurchase(req.body);
    const { row: purchase, replayed } = await createPurchase(deps, input, {
      requestId: req.id,
      get log() {
        return req.log;
      },
    });
    if (infoEnabled())
      req.log.info(replayed ? 'purchase replayed' : 'purchase accepted', {
        purchase_id: purchase.id,
        idempotency_key: input.idempotency_key,
      });
    sendAccepted(res, acceptedView(purchase), replayed);
  });

  router.get('/api/v1/purchases/:purchase_id', async (req, res) => {
    const id = req.params.purchase_id;
    const purchase = UUID.test(id) ? await deps.views.findViewById(id.toLowerCase()) : undefined;
    // A checkout is a row of the same table, read only through /api/v1/checkouts.
    if (!purchase || purchase.mode !== 'server_signed')
      throw AppError.field('PURCHASE_NOT_FOUND', 'purchase_id', 'No purchase with this id exists in this environment.');
    sendJson(res, 200, purchaseView(purchase));
  });

  return router;
}
