import { Router, type Request, type Response } from 'express';
import {
  AppError,
  createValidator,
  CreateWebhookEndpointRequestSchema,
  WebhookDeliveryListQuerySchema,
  webhookEventOf,
  type CreateWebhookEndpointRequest,
  type WebhookDeliveryListQuery,
} from '@starsgate/domain';
import type {
  AdminAudit,
  OutboxEvent,
  WebhookDeliveries,
  WebhookDeliveryRow,
  WebhookEndpoint,
  WebhookEndpoints,
} from '@starsgate/db';
import { adminActor } from './admin-auth';
import { DEFAULT_PAGE_SIZE } from './admin-purchases.routes';
import { decodeCursor, encodeCursor } from './list-cursor';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url';

const validateCreate = createValidator<CreateWebhookEndpointRequest>(CreateWebhookEndpointRequestSchema);
const validateDeliveryQuery = createValidator<WebhookDeliveryListQuery>(WebhookDeliveryListQuerySchema, {
  coerceTypes: true,
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An endpoint as listed: secrets only as masked hints. */
function endpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    created_at: endpoint.createdAt.toISOString(),
    secrets: endpoint.secrets.map((secret) => ({
      hint: secret.hint,
      expires_at: secret.expiresAt?.toISOString() ?? null,
    })),
  };
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

function deliveryView(delivery: WebhookDeliveryRow, event: OutboxEvent) {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    event_id: delivery.eventId,
    event_type: webhookEventOf(event.purchase).type,
    purchase_id: event.purchase.id,
    sequence: event.sequence,
    state: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
    last_attempt_at: iso(delivery.lastAttemptAt),
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    delivered_at: iso(delivery.deliveredAt),
    created_at: delivery.createdAt.toISOString(),
  };
}

function idParam(
  raw: string,
  code: 'WEBHOOK_ENDPOINT_NOT_FOUND' | 'WEBHOOK_DELIVERY_NOT_FOUND',
  field: string,
): string {
  if (!UUID.test(raw)) throw AppError.field(code, field);
  return raw.toLowerCase();
}

/** `/admin/api/webhook-endpoints` and `/admin/api/webhook-deliveries`; every change audited (admin_actions). */
export function webhooksRoutes(deps: {
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
  audit: AdminAudit;
  urlPolicy: WebhookUrlPolicy;
}): Router {
  const router = Router();
  const audit = async (req: Request, res: Response, action: string, targetId: string, details?: unknown) => {
    const actor = adminActor(res);
    await deps.audit.record({ ...actor, action, targetId, details, requestId: req.id });
    req.log.info(`admin: ${action}`, { target_id: targetId, operator: actor.operator, token_id: actor.tokenId });
  };

  router.post('/admin/api/webhook-endpoints', async (req, res) => {
    const input = validateCreate(req.body);
    const url = await checkWebhookUrl(input.url, deps.urlPolicy);
    const { endpoint, secret } = await deps.endpoints.create({ ...input, url });
    await audit(req, res, 'webhook_endpoint.created', endpoint.id, { url, events: endpoint.events });
    res.status(201).json({ ...endpointView(endpoint), secret });
  });

  router.get('/admin/api/webhook-endpoints', async (_req, res) => {
    res.json({ data: (await deps.endpoints.list()).map(endpointView) });
  });

  router.delete('/admin/api/webhook-endpoints/:endpoint_id', async (req, res) => {
    const id = idParam(req.params.endpoint_id, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    if (!(await deps.endpoints.remove(id))) throw AppError.field('WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    await audit(req, res, 'webhook_endpoint.deleted', id);
    res.status(204).end();
  });

  router.post('/admin/api/webhook-endpoints/:endpoint_id/rotate-secret', async (req, res) => {
    const id = idParam(req.params.endpoint_id, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    const rotated = await deps.endpoints.rotateSecret(id);
    if (!rotated) throw AppError.field('WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    await audit(req, res, 'webhook_endpoint.secret_rotated', id);
    res.json({ ...endpointView(rotated.endpoint), secret: rotated.secret });
  });

  router.get('/admin/api/webhook-deliveries', async (req, res) => {
    const query = validateDeliveryQuery({ ...req.query });
    const page = await deps.deliveries.list(
      { endpointId: query.endpoint_id?.toLowerCase(), state: query.state },
      decodeCursor(query.cursor),
      query.limit ?? DEFAULT_PAGE_SIZE,
    );
    res.json({
      data: page.rows.map(({ delivery, event }) => deliveryView(delivery, event)),
      next_cursor: encodeCursor(page.next),
    });
  });

  router.post('/admin/api/webhook-deliveries/:delivery_id/retry', async (req, res) => {
    const id = idParam(req.params.delivery_id, 'WEBHOOK_DELIVERY_NOT_FOUND', 'delivery_id');
    if (!(await deps.deliveries.retry(id))) throw AppError.field('WEBHOOK_DELIVERY_NOT_FOUND', 'delivery_id');
    await audit(req, res, 'webhook_delivery.retried', id);
    const { delivery, event } = (await deps.deliveries.findWithEvent(id))!;
    res.json(deliveryView(delivery, event));
  });

  return router;
}
