import { Router, type Request, type RequestHandler } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import {
  AppError,
  CreateCheckoutRequestSchema,
  createValidator,
  SECRET_FIELDS,
  SubmitCheckoutRequestSchema,
  type CreateCheckoutRequest,
  type SubmitCheckoutRequest,
} from '@starsgate/domain';
import { createCheckout, type CheckoutDeps } from '../checkouts/create-checkout';
import { acceptedCheckoutView, checkoutView } from '../checkouts/checkout-view';
import { submitCheckout } from '../checkouts/submit-checkout';
import { sendAccepted } from '../intake/send-accepted';

const validateCreateCheckout = createValidator<CreateCheckoutRequest>(CreateCheckoutRequestSchema);
const validateSubmitCheckout = createValidator<SubmitCheckoutRequest>(SubmitCheckoutRequestSchema);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A checkout never takes a wallet secret: refused before validation, naming the field only. The
 * value is neither stored nor logged nor echoed (the error body carries field names).
 */
function refuseSecrets(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const sent = SECRET_FIELDS.filter((field) => Object.prototype.hasOwnProperty.call(body, field));
  if (sent.length === 0) return;
  throw new AppError('SEED_NOT_ACCEPTED', {
    details: sent.map((field) => ({ field, message: 'is a wallet secret; a checkout never accepts one' })),
  });
}

function checkoutIdOf(req: Request): string | undefined {
  const id = req.params.checkout_id;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;
}

const notFound = () =>
  AppError.field('CHECKOUT_NOT_FOUND', 'checkout_id', 'No checkout with this id exists in this environment.');

export function checkoutsRoutes(deps: CheckoutDeps & { submissionLimits: RequestHandler }): Router {
  const router = Router();

  router.post('/api/v1/checkouts/ton-proof-payload', async (_req, res) => {
    const { payload, expiresAt } = await deps.tonProof.payloads.issue();
    res.json({ payload, expires_at: expiresAt.toISOString() });
  });

  router.post('/api/v1/checkouts', async (req, res) => {
    refuseSecrets(req.body);
    const input = validateCreateCheckout(req.body);
    const { row: checkout, replayed } = await createCheckout(deps, input, {
      requestId: req.id,
      log: req.log,
      client: ipKeyGenerator(req.ip ?? ''),
    });
    req.log.info(replayed ? 'checkout replayed' : 'checkout accepted', {
      checkout_id: checkout.id,
      idempotency_key: input.idempotency_key,
    });
    sendAccepted(res, acceptedCheckoutView(checkout), replayed);
  });

  router.get('/api/v1/checkouts/:checkout_id', async (req, res) => {
    const id = checkoutIdOf(req);
    const checkout = id ? await deps.checkouts.findById(id) : undefined;
    if (!checkout) throw notFound();
    res.json(checkoutView(checkout));
  });

  router.post('/api/v1/checkouts/:checkout_id/submitted', deps.submissionLimits, async (req, res) => {
    const id = checkoutIdOf(req);
    if (!id) throw notFound();
    const { boc } = validateSubmitCheckout(req.body);
    const { checkout, replayed } = await submitCheckout(deps, id, boc, { log: req.log });
    req.log.info(replayed ? 'checkout submission replayed' : 'checkout transaction accepted', {
      checkout_id: checkout.id,
      normalized_hash: checkout.normalizedHash,
    });
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json(checkoutView(checkout));
  });

  return router;
}
