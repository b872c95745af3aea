/**
 * The fair floor for POST /api/v1/purchases: the least work a durable, idempotent intake can do.
 * Express 5 and `express.json`, one `INSERT … ON CONFLICT DO NOTHING RETURNING` per request into a
 * table of the same width, constraints and indexes as `purchases` (created `LIKE purchases`), one
 * BullMQ `add`, a 202. No validation beyond JSON, no secret sealing, no rate limit, no batching, no
 * logging: what the gateway does beyond this floor is its own overhead.
 */
import { createHmac, randomUUID } from 'node:crypto';
import express from 'express';
import type { Pool } from 'pg';
import { enqueuePurchase, type createPurchaseQueue } from '@starsgate/platform';

export const FLOOR_TABLE = 'floor_purchases';

/** A copy of `purchases` (columns, defaults, CHECKs, every index incl. the idempotency key's unique one). */
export async function createFloorTable(pool: Pool): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${FLOOR_TABLE}`);
  await pool.query(`CREATE TABLE ${FLOOR_TABLE} (LIKE purchases INCLUDING ALL)`);
}

interface FloorOrder {
  idempotency_key?: string;
  product?: string;
  username?: string;
  amount?: number;
  payment_method?: string;
  account_index?: number;
}

const FINGERPRINT_KEY = randomUUID();
const FLOOR_PAYER_SCOPE = 'floor-payer';

export function floorApp(pool: Pool, queue: ReturnType<typeof createPurchaseQueue>): express.Express {
  const app = express();
  app.use(express.json());
  app.post('/floor', async (req: express.Request<unknown, unknown, FloorOrder | undefined>, res) => {
    const order = req.body ?? {};
    const key = String(order.idempotency_key ?? randomUUID());
    // The same kind of fingerprint the gateway stores, so the row carries the same work.
    const fingerprint = createHmac('sha256', FINGERPRINT_KEY).update(JSON.stringify(order)).digest('hex');
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO ${FLOOR_TABLE}
         (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username,
          amount, payment_method, seed_format, account_index)
       VALUES ($1, $2, $3, $4, 'floor', 'queued', $5, $6, $7, $8, 'bip39_12', $9)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        randomUUID(),
        key,
        // Keys are scoped to the payer (docs/security.md, attack 5); the floor derives no key, so
        // every order is one payer's, the bench's single test phrase.
        FLOOR_PAYER_SCOPE,
        fingerprint,
        order.product ?? 'stars',
        order.username ?? '@alice',
        order.amount ?? 50,
        order.payment_method ?? 'gram',
        order.account_index ?? 0,
      ],
    );
    const id = rows[0]?.id;
    if (!id) {
      res.status(409).json({ code: 'IDEMPOTENCY_KEY_REUSED' });
      return;
    }
    await enqueuePurchase(queue, id, 1, 0, { newPurchase: true });
    res.status(202).json({ purchase_id: id, status: 'queued', status_url: `/api/v1/purchases/${id}` });
  });
  return app;
}
