import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Router } from 'express';

export const BULL_BOARD_PATH = '/admin/queues';

/**
 * Bull Board over every BullMQ queue the service uses. Retrying or removing a purchase job is
 * harmless: PostgreSQL decides what a job may do, and the sweeper restores missing jobs.
 */
export function bullBoardRouter(queues: readonly Queue[]): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'starsgate queues' } },
  });
  return serverAdapter.getRouter() as Router;
}
