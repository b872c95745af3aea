/**
 * Server-signed purchases: POST /api/v1/purchases with one idempotency key per logical order,
 * spread over the drive; a few are sent twice at once (a double click), every retry reuses the key
 * and the identical body.
 */
import { Semaphore, spreadOver } from './concurrency';
import { codeOf, type HttpClient } from './http-client';
import type { Ledger } from './ledger';
import { planOrder } from './order-plan';
import type { SeededRandom } from './random';
import type { StatusPoller } from './status-poller';
import { walletFields, type TestWallet } from './wallets';

export interface PurchaseDriveArgs {
  client: HttpClient;
  poller: StatusPoller;
  ledger: Ledger;
  wallets: TestWallet[];
  random: SeededRandom;
  runSeed: string;
  count: number;
  durationMs: number;
}

export async function drivePurchases(args: PurchaseDriveArgs): Promise<void> {
  const slots = new Semaphore(12);
  const orders = Array.from({ length: args.count }, (_, i) => {
    const wallet = args.wallets[i % args.wallets.length]!;
    return {
      key: `chaos-${args.runSeed}-purchase-${i}`,
      body: {
        ...planOrder(args.random),
        ...walletFields(wallet),
        idempotency_key: `chaos-${args.runSeed}-purchase-${i}`,
      },
      twice: args.random.chance(0.04),
    };
  });
  const send = async (key: string, body: Record<string, unknown>): Promise<void> => {
    try {
      const answer = await args.client.request('POST', '/api/v1/purchases', body);
      if (answer.status === 202) {
        const id = String(answer.body['purchase_id']);
        args.ledger.accept('purchase', key, id);
        args.poller.track('purchase', id);
      } else args.ledger.refuse(`${answer.status} ${codeOf(answer.body)}`);
    } catch {
      args.ledger.unsent += 1;
    }
  };
  await spreadOver(orders.length, args.durationMs, async (i) => {
    const order = orders[i]!;
    await slots.run(async () => {
      if (order.twice) {
        args.ledger.doubleSends += 1;
        await Promise.all([send(order.key, order.body), send(order.key, order.body)]);
      } else await send(order.key, order.body);
    });
  });
}
