import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { AppError } from '@starsgate/domain';
import type { AdminAudit } from '@starsgate/db';
import { actorIdentity, adminActor } from '../admin/admin-auth';
import { isUnsafeMethod } from './same-origin';

export const BULL_BOARD_PATH = '/admin/queues';

export interface BullBoardOptions {
  /** BULL_BOARD_WRITABLE: otherwise every queue is read-only and no unsafe request reaches Bull Board. */
  writable: boolean;
  /** Where a writable board's changes are recorded, before each runs. */
  audit: AdminAudit;
}

/**
 * A writable board's change, recorded before it runs: Redis cannot share PostgreSQL's
 * transaction, so the record comes first and a change whose record fails never happens.
 */
function auditedChange(audit: AdminAudit) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!isUnsafeMethod(req)) return next();
    const { tokenId, operator } = adminActor(res);
    await audit.record({
      actor: actorIdentity({ tokenId }),
      operator,
      tokenId,
      action: `bull_board.${req.method.toLowerCase()}`,
      targetId: req.path,
      details: { path: `${BULL_BOARD_PATH}${req.path}`, query: req.query },
      requestId: req.id,
    });
    req.log.info('admin: bull board change', { path: req.path, actor: actorIdentity({ tokenId }), operator });
    next();
  };
}

function refuseChanges(req: Request, _res: Response, next: NextFunction): void {
  next(isUnsafeMethod(req) ? new AppError('ADMIN_QUEUES_READ_ONLY') : undefined);
}

/**
 * Bull Board over every BullMQ queue the service uses: read-only unless BULL_BOARD_WRITABLE
 * (docs/security.md, attack 13). Retrying or removing a purchase job cannot pay twice (PostgreSQL
 * decides what a job may do, the sweeper restores missing jobs), but pausing or cleaning a queue
 * stalls every order, so it takes an explicit opt-in and leaves an audit row.
 */
export function bullBoardHandlers(queues: readonly Queue[], options: BullBoardOptions): [RequestHandler, Router] {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !options.writable })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'starsgate queues' } },
  });
  // Bull Board's router is an Express app: mounted by the app itself (not inside a Router) it
  // inherits the app's request, whose `req.log` the access log reads when the response ends.
  return [options.writable ? auditedChange(options.audit) : refuseChanges, serverAdapter.getRouter() as Router];
}
