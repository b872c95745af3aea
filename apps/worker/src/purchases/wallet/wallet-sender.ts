import { randomUUID } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import type { PurchaseChanges } from '@starsgate/db';
import { assertWorkerMove } from '@starsgate/domain';
import { inSpan } from '@starsgate/platform';
import { buildSignedExternal, createWalletContract, type WalletVersion } from '@starsgate/ton';
import { confirmBatch, watchBatchLanding } from '../steps/confirming';
import { crashAt } from '../crash-points';
import { landingEstimate } from '../chain/landing-estimate';
import { minSignableValidUntil, paymentRequestOf } from '../policy/payment-request';
import { broadcastExternal } from '../chain/signed-external';
import type { StepDeps } from '../step-deps';
import { LeaseLostError, moveAll, rescheduleAll, type HeldPurchase } from '../persistence/held-purchase';
import { assembleBatch } from './wallet-batcher';
import { batchLeaseOwner, freeWallet, walletLeaseName } from './wallet-lease';

/** Fragment's payload exactly as returned (base64url or base64): the cell we sign, never re-encoded. */
export function payloadCell(payload: string): Cell {
  const [cell] = Cell.fromBoc(Buffer.from(payload, 'base64url'));
  if (!cell) throw new Error('payload BOC has no root cell');
  return cell;
}

/** A payment request prepareStep accepted and has not stored yet: the sender stores it with its first write. */
export interface AcceptedRequest {
  changes: PurchaseChanges;
  reason: string;
  data: unknown;
}

/**
 * The wallet's sender: holds the wallet lease (one in-flight external per wallet across all
 * replicas), signs one external for every ready purchase of the wallet, persists it for all of
 * them before broadcasting, broadcasts, then confirms each with Fragment (confirmBatch). A busy
 * wallet parks the purchase until the holder wakes it; nobody waits holding a worker slot.
 * `accepted` is the request prepareStep just accepted, stored by the statement that takes the
 * wallet or parks: either way, one write.
 */
export async function sendStep(deps: StepDeps, leader: HeldPurchase, accepted?: AcceptedRequest): Promise<void> {
  const { config } = deps;
  const request = paymentRequestOf(accepted ? accepted.changes.paymentRequest : leader.row.paymentRequest)!;
  if (!accepted && deps.now() - leader.row.stepStartedAt.getTime() > config.maxAges.waitingToSendMs) {
    await leader.fail(
      {
        code: 'STEP_TIMED_OUT',
        message: `Waited more than ${config.maxAges.waitingToSendMs} ms for the wallet; nothing was signed.`,
      },
      'step timed out',
    );
    return;
  }
  if (!accepted && request.validUntil < minSignableValidUntil(deps.now(), config.minValiditySeconds)) {
    // Fragment's request is about to expire unsigned: ask for a fresh one (nothing was signed).
    await leader.reschedule(
      0,
      {
        paymentRequest: null,
        fragmentReqId: null,
        fragmentRef: null,
        quoteNano: null,
        stepStartedAt: new Date(deps.now()),
      },
      'payment request expired before signing; preparing a fresh one',
    );
    return;
  }

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
  if (!lease) return;

  let persisted = false;
  try {
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
        return;
      }
      const wallet = Address.parse(walletRaw);
      const seqno = await deps.chain.getSeqno(wallet);
      const requests = batch.members.map((member) => paymentRequestOf(member.row.paymentRequest)!);
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

      const rows = await deps.transitions.persistSignedBatch(
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

      let broadcastError: string | undefined;
      const broadcastAt = deps.now();
      landingEstimate(deps).broadcast(batchId, broadcastAt);
      try {
        await broadcastExternal(deps, batchId, signed.boc);
      } catch (error) {
        broadcastError = (error as Error).message;
      }
      crashAt(config, 'after_broadcast_before_confirm');

      if (broadcastError === undefined) {
        const landed = watchBatchLanding(deps, leader, broadcastAt);
        // Recorded while Fragment's confirms are in flight: they read only the payment requests.
        const submitted = moveAll(
          deps,
          batch.members,
          { status: 'submitted', stepStartedAt: new Date(deps.now()) },
          'broadcast',
          { batch_id: batchId },
        );
        await confirmBatch(deps, batch.members, signed.boc, broadcastAt, landed, submitted);
      } else {
        // Stays `sending`: the recovery path rebroadcasts these same bytes or proves expiry.
        await rescheduleAll(
          deps,
          batch.members,
          config.pollIntervalMs,
          {},
          'broadcast failed; will rebroadcast the same BOC',
          { error: broadcastError },
        );
      }
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
