import type { OrderLine, PaymentRequest } from '@starsgate/domain';
import type { Database } from '../database';

/** An open order of a payer whose money has not left its wallet yet. */
export interface ReservingOrder {
  id: string;
  product: string;
  amount: number;
  orderLine: OrderLine | null;
  paymentMethod: string;
  /** Set once Fragment's request was accepted: what the order will pay exactly. */
  paymentRequest: PaymentRequest | null;
}

/**
 * Open orders of one payer wallet that will take money from it and have not been signed yet: the
 * funds check before Fragment reserves what they need (docs/security.md, attack 19b). An accepted
 * request (waiting to be sent, or a checkout waiting for the buyer) always reserves; an order still
 * being prepared reserves only when it came first, so of two parallel orders the older goes ahead.
 * A seed's order whose wallet is not resolved yet counts by the seed's public key.
 */
export class PayerReservations {
  constructor(private readonly db: Database) {}

  async openOrders(payer: {
    walletAddress: string;
    publicKey: string | null;
    /** The order being checked: itself, and orders still being prepared after it, are left out. */
    id: string;
  }): Promise<ReservingOrder[]> {
    const result = await this.db.$client.query<{
      id: string;
      product: string;
      amount: number;
      order_line: OrderLine | null;
      payment_method: string;
      payment_request: PaymentRequest | null;
    }>({
      name: 'payer_reserving_orders',
      text: `SELECT id, product, amount, order_line, payment_method, payment_request FROM purchases
        WHERE (wallet_address = $1 OR (wallet_address IS NULL AND payer_public_key = $2))
          AND id <> $3 AND batch_id IS NULL
          AND (
            (status IN ('preparing', 'awaiting_signature') AND payment_request IS NOT NULL)
            OR (status IN ('queued', 'preparing') AND payment_request IS NULL AND (created_at, id) < (SELECT created_at, id FROM purchases WHERE id = $3))
          )`,
      values: [payer.walletAddress, payer.publicKey, payer.id],
    });
    return result.rows.map((row) => ({
      id: row.id,
      product: row.product,
      amount: row.amount,
      orderLine: row.order_line,
      paymentMethod: row.payment_method,
      paymentRequest: row.payment_request,
    }));
  }
}
