import { randomUUID } from 'node:crypto';
import { orderPaymentMethod, type CreatePurchaseRequest } from '@starsgate/domain';
import type { FingerprintKeys, IntakeRow, PurchaseRepository, SecretSealing } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import { parseWalletAddress, resolveWalletOffline, type Network } from '@starsgate/ton';
import type { GatewayMetrics } from '../observability/metrics';
import { assertOpenOrderRoom, type OpenOrderGuard } from './open-order-caps';
import { assertSameOrder, orderFingerprint, type LogicalOrder } from './order-fingerprint';
import type { PurchaseIntakeBatcher } from './purchase-intake-batcher';
import type { PurchaseJobEnqueuer } from './purchase-job-enqueuer';

export interface CreatePurchaseDeps {
  intake: PurchaseIntakeBatcher;
  jobs: PurchaseJobEnqueuer;
  sealer: SecretSealing;
  fingerprints: FingerprintKeys;
  metrics: GatewayMetrics;
  network: Network;
  openOrders: OpenOrderGuard;
  purchases: Pick<PurchaseRepository, 'findByIdempotencyKey'>;
}

export interface CreatePurchaseResult {
  purchase: IntakeRow;
  replayed: boolean;
}

/**
 * Local-only mutation: validates, claims the idempotency key and stores the purchase with
 * its sealed secret in one transaction (shared with concurrent requests), then hands the id to BullMQ. Foreign calls happen
 * in the worker. A failed enqueue is repaired by the sweeper, so it does not fail the request.
 */
export async function createPurchase(
  deps: CreatePurchaseDeps,
  input: CreatePurchaseRequest,
  context: { requestId: string; log: Logger },
): Promise<CreatePurchaseResult> {
  const paymentMethod = orderPaymentMethod(input.product, input.payment_method);
  const requestedAddress =
    input.wallet_address === undefined ? null : parseWalletAddress(input.wallet_address, deps.network);
  const order = {
    route: 'purchases' as const,
    product: input.product,
    username: input.username,
    amount: input.amount,
    paymentMethod,
    seed: input.seed,
    walletAddressRaw: requestedAddress?.toRawString() ?? null,
    accountIndex: input.account_index ?? null,
  };

  // Wallet checks come first (a malformed request records nothing); repeated orders hit the
  // offline-resolution cache, so a replay costs no key derivation and new orders one round trip.
  const wallet = await resolveWalletOffline(
    { seed: input.seed, wallet_address: input.wallet_address, account_index: input.account_index },
    deps.network,
  );
  const single = wallet.candidates.length === 1 ? wallet.candidates[0] : undefined;
  const matching = requestedAddress
    ? wallet.candidates.find((candidate) => candidate.address.equals(requestedAddress))
    : single;

  // The payer: the wallet this seed pays from (every candidate while the version is not yet known).
  const payers = (matching ? [matching] : wallet.candidates).map((candidate) => candidate.address.toRawString());
  // Its idempotency keys live in the namespace of its public key: known before any candidate is
  // chosen, the same for all of them, and for every replay (docs/security.md, attack 5).
  const payerPublicKey = wallet.publicKey.toString('hex');
  await assertOpenOrderRoom(deps.openOrders, payers, 'seed', async () =>
    Boolean(await deps.purchases.findByIdempotencyKey(payerPublicKey, input.idempotency_key)),
  );

  const result = await deps.intake.insertOrGetByKey(
    {
      id: randomUUID(),
      idempotencyKey: input.idempotency_key,
      idempotencyScope: payerPublicKey,
      requestFingerprint: orderFingerprint(deps.fingerprints, order)!,
      fingerprintKeyId: deps.fingerprints.primaryKeyId,
      status: 'queued',
      product: input.product,
      username: input.username,
      amount: input.amount,
      paymentMethod,
      seedFormat: wallet.seedFormat,
      accountIndex: wallet.accountIndex,
      requestedWalletAddress: order.walletAddressRaw,
      walletAddress: matching?.address.toRawString() ?? null,
      walletVersion: matching?.version ?? null,
      payerPublicKey,
      requestId: context.requestId,
    },
    (purchaseId) => deps.sealer.seal(purchaseId, input.seed),
    {
      fromStatus: null,
      toStatus: 'queued',
      actor: 'gateway',
      reason: 'purchase accepted',
      requestId: context.requestId,
    },
  );
  if (!result.created) return replayOrConflict(deps, result.purchase, order);

  deps.metrics.purchasesCreated.inc({
    product: input.product,
    payment_method: paymentMethod,
    mode: 'server_signed',
  });
  await deps.jobs.enqueueOrLeaveToSweeper(result.purchase, context, 'purchase_id');
  return { purchase: result.purchase, replayed: false };
}

function replayOrConflict(deps: CreatePurchaseDeps, existing: IntakeRow, order: LogicalOrder): CreatePurchaseResult {
  assertSameOrder(deps, existing, order);
  return { purchase: existing, replayed: true };
}
