/**
 * Client-signed checkouts: the shop creates the checkout, waits for the TON Connect request, the
 * payer's wallet signs it (real key, real BOC) and the shop posts it to /submitted, or the wallet
 * broadcasts it itself (with or without the shop also posting it). A few buyers walk away
 * (the checkout must end `expired`).
 */
import type { SendTransactionRequest } from '@starsgate/ton';
import { sleep } from '@starsgate/stack';
import type { ChainAccess } from './chain-access';
import { spreadOver } from './concurrency';
import { codeOf, type HttpClient } from './http-client';
import type { Ledger } from './ledger';
import { planOrder } from './order-plan';
import type { PayerWallet } from './payer-wallet';
import type { SeededRandom } from './random';
import type { StatusPoller } from './status-poller';

export interface CheckoutDriveArgs {
  client: HttpClient;
  chain: ChainAccess;
  poller: StatusPoller;
  ledger: Ledger;
  payers: PayerWallet[];
  random: SeededRandom;
  runSeed: string;
  count: number;
  durationMs: number;
}

type PayBy = 'submit' | 'broadcast_and_submit' | 'broadcast' | 'abandon';

function payBy(random: SeededRandom): PayBy {
  const draw = random.next();
  return draw < 0.03 ? 'abandon' : draw < 0.15 ? 'broadcast' : draw < 0.27 ? 'broadcast_and_submit' : 'submit';
}

/** Polls the checkout until the worker prepared it (or ended it). */
async function waitPrepared(client: HttpClient, id: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const answer = await client.request('GET', `/api/v1/checkouts/${id}`);
      if (answer.status === 200 && answer.body['status'] !== 'preparing') return answer.body;
    } catch {
      // gave up this read; ask again
    }
    if (Date.now() > deadline) return { status: 'preparing' };
    await sleep(2_000);
  }
}

export async function driveCheckouts(args: CheckoutDriveArgs): Promise<void> {
  const plans = Array.from({ length: args.count }, (_, i) => ({
    key: `chaos-${args.runSeed}-checkout-${i}`,
    order: planOrder(args.random),
    payer: args.payers[i % args.payers.length]!,
    by: payBy(args.random),
  }));
  await spreadOver(plans.length, args.durationMs, async (i) => {
    const { key, order, payer, by } = plans[i]!;
    const body: Record<string, unknown> = { ...order, payer_address: payer.address, idempotency_key: key };
    try {
      if (!payer.deployed && !(await args.chain.walletState(payer.address)).active) {
        body['payer_public_key'] = payer.account.publicKey;
        body['payer_state_init'] = payer.account.walletStateInit;
      }
      const created = await args.client.request('POST', '/api/v1/checkouts', body);
      if (created.status !== 202) {
        args.ledger.refuse(`checkout ${created.status} ${codeOf(created.body)}`);
        return;
      }
      const id = String(created.body['checkout_id']);
      args.ledger.accept('checkout', key, id);
      args.poller.track('checkout', id);
      const prepared = await waitPrepared(args.client, id, 240_000);
      if (prepared['status'] !== 'awaiting_signature') {
        args.ledger.payments.notPrepared += 1;
        return;
      }
      if (by === 'abandon') {
        args.ledger.payments.abandoned += 1;
        return;
      }
      const request = prepared['transaction'] as SendTransactionRequest;
      await payer.withTurn(async (sign) => {
        if (request.validUntil < Date.now() / 1000 + 5) return; // too late to pay: let it expire
        const boc = await sign(request);
        if (by !== 'submit') await args.chain.sendBoc(boc);
        if (by !== 'broadcast') {
          const answer = await args.client.request('POST', `/api/v1/checkouts/${id}/submitted`, { boc });
          if (answer.status !== 202) args.ledger.refuse(`submitted ${answer.status} ${codeOf(answer.body)}`);
        }
        if (by === 'submit') args.ledger.payments.submitted += 1;
        else if (by === 'broadcast') args.ledger.payments.broadcastOnly += 1;
        else args.ledger.payments.broadcastAndSubmitted += 1;
      });
    } catch {
      args.ledger.unsent += 1;
    }
  });
}
