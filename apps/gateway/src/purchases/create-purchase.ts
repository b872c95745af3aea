import type { CreatePurchaseRequest } from '@starsgate/domain';
import { payerKeyIdentity, type IntakeRow, type PurchaseRepository, type SecretSealing } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import { parseWalletAddress, resolveWalletOffline, type Network } from '@starsgate/ton';
import { intakeOrder, type AcceptedOrder, type OrderIntakeDeps } from '../intake/order-intake';
import { logicalOrder, PURCHASE_ORDERS } from '../intake/order-kind';
import type { PurchaseIntakeBatcher } from './purchase-intake-batcher';

export interface CreatePurchaseDeps extends OrderIntakeDeps {
  intake: PurchaseIntakeBatcher;
  sealer: SecretSealing;
  network: Network;
  purchases: Pick<PurchaseRepository, 'findByIdempotencyKey'>;
}

/**
 * A server-signed purchase: identifies the payer wallet from the seed, then goes through the one
 * intake (intake/order-intake.ts), storing the purchase in `queued` with its sealed secret in one
 * transaction shared with concurrent requests (purchase-intake-batcher.ts).
 */
export async function createPurchase(
  deps: CreatePurchaseDeps,
  input: CreatePurchaseRequest,
  context: { requestId: string; log: Logger },
): Promise<AcceptedOrder<IntakeRow>> {
  const item = logicalOrder(PURCHASE_ORDERS, input);
  const requestedAddress =
    input.wallet_address === undefined ? null : parseWalletAddress(input.wallet_address, deps.network);
  const order = {
    ...item,
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

  // Its idempotency keys live in the namespace of its public key: known before any candidate is
  // chosen, the same for all of them, and for every replay (docs/security.md, attack 5).
  const payerPublicKey = wallet.publicKey.toString('hex');
  return intakeOrder(
    deps,
    {
      kind: PURCHASE_ORDERS,
      order,
      idempotencyKey: input.idempotency_key,
      idempotencyScope: payerPublicKey,
      // The payer: the wallet this seed pays from (every candidate while the version is not yet
      // known), and its key, which every order of the seed carries however it was sent (attack 19c).
      payers: [
        ...(matching ? [matching] : wallet.candidates).map((candidate) => candidate.address.toRawString()),
        payerKeyIdentity(payerPublicKey),
      ],
      findByKey: () => deps.purchases.findByIdempotencyKey(payerPublicKey, input.idempotency_key),
      insertOrGet: (columns) =>
        deps.intake.insertOrGetByKey(
          {
            ...columns,
            status: 'queued',
            seedFormat: wallet.seedFormat,
            accountIndex: wallet.accountIndex,
            requestedWalletAddress: order.walletAddressRaw,
            walletAddress: matching?.address.toRawString() ?? null,
            walletVersion: matching?.version ?? null,
            payerPublicKey,
          },
          (purchaseId) => deps.sealer.seal(purchaseId, input.seed),
          {
            fromStatus: null,
            toStatus: 'queued',
            actor: 'gateway',
            reason: 'purchase accepted',
            requestId: context.requestId,
          },
        ),
    },
    context,
  );
}
