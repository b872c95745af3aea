import { randomUUID } from 'node:crypto';
import { Address } from '@ton/core';
import type { PurchaseChanges } from '@starsgate/db';
import { assertWorkerMove } from '@starsgate/domain';
import { inSpan } from '@starsgate/platform';
import { buildSignedExternal, createWalletContract, type WalletVersion } from '@starsgate/ton';
import { crashAt } from '../crash-points';
import type { SignedBatch } from '../next-step';
import { payloadCell } from '../policy/payment-request';
import type { StepDeps } from '../step-deps';
import { rescheduleAll } from '../persistence/batch-writes';
import type { HeldPurchase } from '../persistence/held-purchase';
import { LeaseLostError } from '../persistence/lease-lost-error';
import { refusedAtSigning } from './signing-guard';
import { assembleBatch } from './wallet-batcher';
import { batchLeaseOwner, freeWallet, walletLeaseName } from './wallet-lease';

/** A payment request the `preparing` step accepted and has not stored yet: the sender stores it with its first write. */
export interface AcceptedRequest {
  changes: PurchaseChanges;
  reason: string;
  data: unknown;
}

/**
 * The wallet's sender, the end of `preparing` for a server-signed purchase: holds the wallet
 * lease (one in-flight external per wallet across all replicas), signs one external for every
 * ready purchase of the wallet and persists it for all of them (they move to `sending`) before
 * anything is broadcast. Returns that batch, still held, for the `sending` step; nothing when
 * this job ends here. A busy wallet parks the purchase until the holder wakes it; nobody waits
 * holding a worker slot. `accepted` is the request `preparing` just accepted, stored by the
 * statement that takes the wallet or parks: either way, one write.
 */
export async function signForWallet(
  deps: StepDeps,
  leader: HeldPurchase,
  accepted?: AcceptedRequest,
): Promise<{ members: HeldPurchase[]; signed: SignedBatch } | undefined> {
  const { config } = deps;
  const batchId = randomUUID();
  const walletRaw = (accepted?.changes.walletAddress ?? leader.row.walletAddress)!;
  // Becomes the wallet's sender, storing the accepted request with the same statement, or parks
  // until the sender wakes it.
  const { lease, lost } = await leader.enterWalletSender(
    { name: walletLeaseName(walletRaw), owner: batchLeaseOwner(batchId), ttlMs: config.leaseMs },
    config.walletBusyRetryMs * (0.5 + Math.random()),
    accepted?.changes,
    accepted?.reason,
    accepted?.data,
  );
  if (lost) {
    if (lease) await freeWallet(deps, lease, walletRaw);
    throw new LeaseLostError(leader.row.id);
  }
  if (!lease) return undefined;

  let persisted = false;
  try {
    if (await refusedAtSigning(deps, leader)) return undefined;
    const batch = await assembleBatch(deps, leader);
    try {
      if (batch.leaderShortfall) {
        await leader.fail(
          {
            code: 'TOP_UP_REQUIRED',
            message: 'The payer wallet does not hold enough funds for this purchase.',
            details: batch.leaderShortfall,
          },
          'insufficient funds at signing',
        );
        return undefined;
      }
      const wallet = Address.parse(walletRaw);
      const seqno = await deps.chain.getSeqno(wallet);
      const requests = batch.members.map((member) => member.row.paymentRequest!);
      const validUntil = Math.min(...requests.map((r) => r.validUntil));
      const contract = createWalletContract(
        leader.row.walletVersion as WalletVersion,
        batch.keys.publicKey,
        config.network,
      );
      for (const member of batch.members) assertWorkerMove(member.row.status, 'sending', member.row.mode);
      const signed = await inSpan('wallet.sign', { 'starsgate.batch_size': batch.members.length }, () =>
        buildSignedExternal({
          wallet: contract,
          secretKey: batch.keys.secretKey,
          seqno,
          validUntil,
          messages: requests.map((r) => ({
            to: Address.parse(r.message.address),
            value: BigInt(r.message.amount),
            bounce: false,
            body: payloadCell(r.message.payload),
          })),
        }),
      );
      batch.keys.secretKey.fill(0);
      crashAt(config, 'after_sign_before_persist');

      const rows = await deps.signedBatches.persist(
        {
          batchId,
          walletAddress: walletRaw,
          boc: signed.boc,
          normalizedHash: signed.normalizedHash,
          seqno: signed.seqno,
          validUntil: signed.validUntil,
          messageCount: batch.members.length,
        },
        batch.members.map((member, index) => ({
          fence: member.fence,
          fromStatus: member.row.status,
          evidence: member.evidenceWith({
            batch: { id: batchId, index, size: batch.members.length, since_lt: batch.sinceLt.toString() },
          }),
          eventData: {
            batch_id: batchId,
            batch_index: index,
            batch_size: batch.members.length,
            seqno: signed.seqno,
            valid_until: signed.validUntil,
            normalized_hash: signed.normalizedHash,
          },
        })),
        { stepStartedAt: new Date(deps.now()), reason: 'signed; persisted before broadcast' },
        lease,
        signed.validUntil * 1000 + config.validUntilMarginMs,
      );
      if (!rows) throw new LeaseLostError(leader.row.id);
      persisted = true;
      rows.forEach((row, index) => batch.members[index]!.adopt(row));
      crashAt(config, 'after_persist_before_broadcast');
      return { members: batch.members, signed: { batchId, boc: signed.boc } };
    } catch (error) {
      // Nothing persisted: the other members go back to waiting at once rather than at lease expiry.
      if (!persisted) await rescheduleAll(deps, batch.members.slice(1), 0).catch(() => undefined);
      throw error;
    } finally {
      batch.keys.secretKey.fill(0);
    }
  } finally {
    if (!persisted) await freeWallet(deps, lease, walletRaw);
  }
}
