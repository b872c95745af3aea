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
  AdminActionRecord,
  OutboxEvent,
  WebhookDeliveries,
  WebhookDeliveryRow,
  WebhookEndpoint,
  WebhookEndpoints,
} from '@starsgate/db';
import { actorIdentity, adminActor } from './admin-auth';
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

/**
 * `/admin/api/webhook-endpoints` and `/admin/api/webhook-deliveries`; every change audited
 * (admin_actions) in the change's own transaction, with the authenticated actor.
 */
export function webhooksRoutes(deps: {
  endpoints: WebhookEndpoints;
  deliveries: WebhookDeliveries;
  urlPolicy: WebhookUrlPolicy;
}): Router {
  const router = Router();
  const auditOf = (req: Request, res: Response, action: string, details?: unknown): AdminActionRecord => {
    const { tokenId, operator } = adminActor(res);
    return { actor: actorIdentity({ tokenId }), operator, tokenId, action, details, requestId: req.id };
  };
  const logged = (req: Request, record: AdminActionRecord, targetId: string) => {
    req.log.info(`admin: ${record.action}`, {
      target_id: targetId,
      actor: record.actor,
      operator: record.operator,
      token_id: record.tokenId,
    });
  };

  router.post('/admin/api/webhook-endpoints', async (req, res) => {
    const input = validateCreate(req.body);
    const url = await checkWebhookUrl(input.url, deps.urlPolicy);
    const audit = auditOf(req, res, 'webhook_endpoint.created', { url, events: input.events ?? null });
    const { endpoint, secret } = await deps.endpoints.create({ ...input, url }, audit);
    logged(req, audit, endpoint.id);
    res.status(201).json({ ...endpointView(endpoint), secret });
  });

  router.get('/admin/api/webhook-endpoints', async (_req, res) => {
    res.json({ data: (await deps.endpoints.list()).map(endpointView) });
  });

  router.delete('/admin/api/webhook-endpoints/:endpoint_id', async (req, res) => {
    const id = idParam(req.params.endpoint_id, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    const audit = auditOf(req, res, 'webhook_endpoint.deleted');
    if (!(await deps.endpoints.remove(id, audit))) throw AppError.field('WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    logged(req, audit, id);
    res.status(204).end();
  });

  router.post('/admin/api/webhook-endpoints/:endpoint_id/rotate-secret', async (req, res) => {
    const id = idParam(req.params.endpoint_id, 'WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    const audit = auditOf(req, res, 'webhook_endpoint.secret_rotated');
    const rotated = await deps.endpoints.rotateSecret(id, audit);
    if (!rotated) throw AppError.field('WEBHOOK_ENDPOINT_NOT_FOUND', 'endpoint_id');
    logged(req, audit, id);
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
    const audit = auditOf(req, res, 'webhook_delivery.retried');
    if (!(await deps.deliveries.retry(id, audit))) throw AppError.field('WEBHOOK_DELIVERY_NOT_FOUND', 'delivery_id');
    logged(req, audit, id);
    const { delivery, event } = (await deps.deliveries.findWithEvent(id))!;
    res.json(deliveryView(delivery, event));
  });

  return router;
}
