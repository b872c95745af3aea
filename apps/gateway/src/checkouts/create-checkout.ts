import type { CreateCheckoutRequest } from '@starsgate/domain';
import type { CheckoutRepository, PurchaseRow } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import { AppError } from '@starsgate/domain';
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
import { provenCheckoutPayer, type TonProofSettings } from './payer-proof';

export interface CheckoutDeps extends OrderIntakeDeps {
  checkouts: CheckoutRepository;
  network: Network;
  chain: ChainClient;
  tonProof: TonProofSettings;
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
  context: {
    requestId: string;
    log: Logger;
    /** Who sent the request (its rate-limit key): the key scope of a checkout without a proof. */
    client: string;
  },
): Promise<AcceptedOrder<PurchaseRow>> {
  const item = logicalOrder(CHECKOUT_ORDERS, input);
  const payer = parseWalletAddress(input.payer_address, deps.network, 'payer_address');
  const payerAddress = payer.toRawString();
  const proven = input.ton_proof
    ? await provenCheckoutPayer(deps.tonProof, payer, input, {
        network: deps.network,
        chain: deps.chain,
        nowMs: Date.now(),
      })
    : undefined;
  if (!proven && deps.tonProof.required) throw AppError.field('CHECKOUT_PROOF_REQUIRED', 'ton_proof');
  // Keys are scoped to the proven payer, else to the client: anyone can name a public address, so
  // an unproven address scope let a known buyer's predictable keys be squatted (docs/security.md,
  // attacks 5 and 28). Another scope's key of the same string is neither a conflict nor a replay.
  const scope = proven ? payerAddress : `client:${context.client}`;
  let resolved: CheckoutPayer | undefined = proven;
  return deps.payerQueue.run(payerAddress, () =>
    intakeOrder(
      deps,
      {
        kind: CHECKOUT_ORDERS,
        order: { ...item, walletAddressRaw: payerAddress },
        idempotencyKey: input.idempotency_key,
        idempotencyScope: scope,
        payers: [payerAddress],
        findByKey: () => deps.checkouts.findByIdempotencyKey(scope, input.idempotency_key),
        admitNewOrder: async () => {
          await assertOpenCheckoutRoom(deps.checkouts, payerAddress, {
            cap: deps.openCheckoutsPerPayer,
            retryAfterSeconds: deps.openOrders.caps.retryAfterSeconds,
          });
          if (proven) return;
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
