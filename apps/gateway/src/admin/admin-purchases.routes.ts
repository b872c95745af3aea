import { Router } from 'express';
import {
  AdminPurchaseListQuerySchema,
  AppError,
  createValidator,
  ResolvePurchaseRequestSchema,
  type AdminPurchaseListQuery,
  type ResolvePurchaseRequest,
} from '@starsgate/domain';
import type { PurchaseListFilter } from '@starsgate/db';
import { parseWalletAddress } from '@starsgate/ton';
import { actorIdentity, adminActor } from './admin-auth';
import { adminPurchaseDetail, adminPurchaseSummary } from './admin-purchase-view';
import { decodeCursor, encodeCursor } from './list-cursor';
import { resolvePurchase, type ResolutionDeps } from './purchase-resolution';

const validateListQuery = createValidator<AdminPurchaseListQuery>(AdminPurchaseListQuerySchema, { coerceTypes: true });
const validateResolve = createValidator<ResolvePurchaseRequest>(ResolvePurchaseRequestSchema);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DEFAULT_PAGE_SIZE = 50;

function listFilter(query: AdminPurchaseListQuery, network: 'mainnet' | 'testnet'): PurchaseListFilter {
  const filter: PurchaseListFilter = {};
  if (query.status) filter.status = query.status;
  if (query.mode) filter.mode = query.mode;
  if (query.product) filter.product = query.product;
  if (query.payment_method) filter.paymentMethod = query.payment_method;
  if (query.username) filter.username = query.username.startsWith('@') ? query.username : `@${query.username}`;
  if (query.wallet_address)
    filter.walletAddress = parseWalletAddress(query.wallet_address, network, 'wallet_address').toRawString();
  if (query.idempotency_key) filter.idempotencyKey = query.idempotency_key;
  if (query.created_from) filter.createdFrom = new Date(query.created_from);
  if (query.created_to) filter.createdTo = new Date(query.created_to);
  return filter;
}

function purchaseId(raw: string): string {
  if (!UUID.test(raw)) throw AppError.field('PURCHASE_NOT_FOUND', 'purchase_id');
  return raw.toLowerCase();
}

/** `/admin/api/purchases`: find any order, read its timeline and evidence, resolve a reconciliation case. */
export function adminPurchasesRoutes(deps: ResolutionDeps): Router {
  const router = Router();

  router.get('/admin/api/purchases', async (req, res) => {
    const query = validateListQuery({ ...req.query });
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await deps.reads.list(listFilter(query, deps.network), decodeCursor(query.cursor), limit);
    res.json({ data: page.rows.map(adminPurchaseSummary), next_cursor: encodeCursor(page.next) });
  });

  router.get('/admin/api/purchases/:purchase_id', async (req, res) => {
    const id = purchaseId(req.params.purchase_id);
    const row = await deps.reads.find(id);
    if (!row) throw AppError.field('PURCHASE_NOT_FOUND', 'purchase_id');
    const [events, external, waitingOn] = await Promise.all([
      deps.reads.timeline(id),
      row.batchId ? deps.reads.signedExternal(row.batchId) : undefined,
      deps.reads.waitingOnLookalikes(row),
    ]);
    res.json(adminPurchaseDetail(row, events, external, waitingOn));
  });

  router.post('/admin/api/purchases/:purchase_id/resolve', async (req, res) => {
    const id = purchaseId(req.params.purchase_id);
    const input = validateResolve(req.body);
    const by = adminActor(res);
    const row = await resolvePurchase(deps, id, input, by);
    req.log.info('reconciliation case resolved', {
      purchase_id: id,
      outcome: input.outcome,
      actor: actorIdentity(by),
      operator: input.operator,
    });
    const [events, external, waitingOn] = await Promise.all([
      deps.reads.timeline(id),
      row.batchId ? deps.reads.signedExternal(row.batchId) : undefined,
      deps.reads.waitingOnLookalikes(row),
    ]);
    res.json(adminPurchaseDetail(row, events, external, waitingOn));
  });

  return router;
}
