import type { CreateCheckoutRequest } from '@starsgate/domain';
import type { CheckoutRepository, PurchaseRow } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import {
  parseWalletAddress,
  resolveCheckoutPayer,
  type ChainClient,
  type CheckoutPayer,
  type Network,
} from '@starsgate/ton';
import { assertOpenCheckoutRoom } from './open-checkout-cap';
import type { PerPayerQueue } from './per-payer-queue';
import { intakeOrder, type AcceptedOrder, type OrderIntakeDeps } from '../intake/order-intake';
import { CHECKOUT_ORDERS, logicalOrder } from '../intake/order-kind';

export interface CheckoutDeps extends OrderIntakeDeps {
  checkouts: CheckoutRepository;
  network: Network;
  chain: ChainClient;
  /** OPEN_CHECKOUTS_PER_PAYER (docs/security.md, attack 17). */
  openCheckoutsPerPayer: number;
  /** One checkout intake per payer at a time, so the cap's count and the insert are not raced. */
  payerQueue: PerPayerQueue;
}

/**
 * Stores a checkout (`preparing`, no secret) through the one intake (intake/order-intake.ts) and
 * hands its id to the worker, which prepares the Fragment order and the transaction to sign. A
 * replay (same key, same order) answers the existing checkout without asking the chain; a new one
 * first identifies the payer wallet, so a wallet that cannot pay (not deployed and no key given,
 * not a standard wallet) is a 400 and nothing is stored.
 */
export async function createCheckout(
  deps: CheckoutDeps,
  input: CreateCheckoutRequest,
  context: { requestId: string; log: Logger },
): Promise<AcceptedOrder<PurchaseRow>> {
  const item = logicalOrder(CHECKOUT_ORDERS, input);
  const payer = parseWalletAddress(input.payer_address, deps.network, 'payer_address');
  const payerAddress = payer.toRawString();
  let resolved: CheckoutPayer | undefined;
  // Keys are scoped to the payer address: another payer's key of the same string is not this
  // order's, neither a conflict nor a replay (docs/security.md, attack 5).
  return deps.payerQueue.run(payerAddress, () =>
    intakeOrder(
      deps,
      {
        kind: CHECKOUT_ORDERS,
        order: { ...item, walletAddressRaw: payerAddress },
        idempotencyKey: input.idempotency_key,
        idempotencyScope: payerAddress,
        payers: [payerAddress],
        findByKey: () => deps.checkouts.findByIdempotencyKey(payerAddress, input.idempotency_key),
        admitNewOrder: async () => {
          await assertOpenCheckoutRoom(deps.checkouts, payerAddress, {
            cap: deps.openCheckoutsPerPayer,
            retryAfterSeconds: deps.openOrders.caps.retryAfterSeconds,
          });
          resolved = await resolveCheckoutPayer(
            payer,
            { publicKey: input.payer_public_key, stateInit: input.payer_state_init },
            { network: deps.network, chain: deps.chain },
          );
        },
        insertOrGet: (columns) =>
          deps.checkouts.insertOrGetByKey(
            {
              ...columns,
              payerAddress,
              // Kept for every checkout: /submitted checks a BOC's signature against it before any chain read.
              payerPublicKey: resolved?.publicKey.toString('hex') ?? input.payer_public_key?.toLowerCase() ?? null,
              payerStateInit: input.payer_state_init ?? null,
            },
            { actor: 'gateway', reason: 'checkout accepted' },
          ),
      },
      context,
    ),
  );
}
