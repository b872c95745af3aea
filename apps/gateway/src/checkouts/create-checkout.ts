import { randomUUID } from 'node:crypto';
import { orderPaymentMethod, type CreateCheckoutRequest } from '@starsgate/domain';
import type { CheckoutRepository, FingerprintKeys, PurchaseRow } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import { parseWalletAddress, resolveCheckoutPayer, type ChainClient, type Network } from '@starsgate/ton';
import type { GatewayMetrics } from '../observability/metrics';
import { assertSameOrder, orderFingerprint, type LogicalOrder } from '../purchases/order-fingerprint';
import { assertOpenOrderRoom, type OpenOrderGuard } from '../purchases/open-order-caps';
import type { PurchaseJobEnqueuer } from '../purchases/purchase-job-enqueuer';

export interface CheckoutDeps {
  checkouts: CheckoutRepository;
  jobs: PurchaseJobEnqueuer;
  fingerprints: FingerprintKeys;
  metrics: GatewayMetrics;
  network: Network;
  chain: ChainClient;
  openOrders: OpenOrderGuard;
}

/**
 * Stores a checkout (`preparing`) and hands its id to the worker, which prepares the Fragment order
 * and the transaction to sign. A replay (same key, same order) answers the existing checkout
 * without asking the chain; a new one first identifies the payer wallet, so a wallet that cannot
 * pay (not deployed and no key given, not a standard wallet) is a 400 and nothing is stored.
 */
export async function createCheckout(
  deps: CheckoutDeps,
  input: CreateCheckoutRequest,
  context: { requestId: string; log: Logger },
): Promise<{ checkout: PurchaseRow; replayed: boolean }> {
  const paymentMethod = orderPaymentMethod(input.product, input.payment_method);
  const payer = parseWalletAddress(input.payer_address, deps.network, 'payer_address');
  const order: LogicalOrder = {
    route: 'checkouts',
    product: input.product,
    username: input.username,
    amount: input.amount,
    paymentMethod,
    walletAddressRaw: payer.toRawString(),
  };
  // Keys are scoped to the payer address: another payer's key of the same string is not this
  // order's, neither a conflict nor a replay (docs/security.md, attack 5).
  const existing = await deps.checkouts.findByIdempotencyKey(payer.toRawString(), input.idempotency_key);
  if (existing) {
    assertSameOrder(deps, existing, order);
    return { checkout: existing, replayed: true };
  }

  await assertOpenOrderRoom(deps.openOrders, [payer.toRawString()], 'payer_address', () => Promise.resolve(false));
  await resolveCheckoutPayer(
    payer,
    { publicKey: input.payer_public_key, stateInit: input.payer_state_init },
    { network: deps.network, chain: deps.chain },
  );
  const result = await deps.checkouts.insertOrGetByKey(
    {
      id: randomUUID(),
      idempotencyKey: input.idempotency_key,
      requestFingerprint: orderFingerprint(deps.fingerprints, order)!,
      fingerprintKeyId: deps.fingerprints.primaryKeyId,
      product: input.product,
      username: input.username,
      amount: input.amount,
      paymentMethod,
      payerAddress: payer.toRawString(),
      payerPublicKey: input.payer_public_key?.toLowerCase() ?? null,
      payerStateInit: input.payer_state_init ?? null,
      requestId: context.requestId,
    },
    { actor: 'gateway', reason: 'checkout accepted' },
  );
  if (!result.created) {
    // A concurrent request with the same key won the insert.
    assertSameOrder(deps, result.checkout, order);
    return { checkout: result.checkout, replayed: true };
  }
  deps.metrics.purchasesCreated.inc({
    product: input.product,
    payment_method: paymentMethod,
    mode: 'client_signed',
  });
  await deps.jobs.enqueueOrLeaveToSweeper(result.checkout, context, 'checkout_id');
  return { checkout: result.checkout, replayed: false };
}
