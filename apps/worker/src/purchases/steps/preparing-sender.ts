import { randomUUID } from 'node:crypto';
import { assertWorkerMove } from '@starsgate/domain';
import { crashAt } from '../crash-points';
import type { NextStep, SignedBatch } from '../next-step';
import type { HeldPurchase } from '../persistence/held-purchase';
import { LeaseLostError } from '../persistence/lease-lost-error';
import { decide } from '../persistence/purchase-decision';
import { applyDecision, enterWalletSender, persistSignedBatch } from '../persistence/purchase-writer';
import { minSignableValidUntil } from '../policy/payment-request';
import type { StepDeps } from '../step-deps';
import { refusalAtSigning } from '../wallet/signing-guard';
import { assembleBatch } from '../wallet/wallet-batcher';
import { batchLeaseOwner, freeWallet, walletLeaseName } from '../wallet/wallet-lease';
import { signBatchExternal, type AcceptedRequest } from '../wallet/wallet-sender';

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
  const { lease, lost } = await enterWalletSender(
    deps,
    leader,
    { name: walletLeaseName(walletRaw), owner: batchLeaseOwner(batchId), ttlMs: config.leaseMs },
    config.walletBusyRetryMs * (0.5 + Math.random()),
    accepted ?? { changes: {} },
  );
  if (lost) {
    if (lease) await freeWallet(deps, lease, walletRaw);
    throw new LeaseLostError(leader.row.id);
  }
  if (!lease) return undefined;

  let persisted = false;
  try {
    const refusal = await refusalAtSigning(deps, leader);
    if (refusal) {
      await applyDecision(deps, leader, refusal);
      return undefined;
    }
    const batch = await assembleBatch(deps, leader, (member, decision) => applyDecision(deps, member, decision));
    try {
      if (batch.leaderShortfall) {
        await applyDecision(
          deps,
          leader,
          decide.fail(
            deps,
            {
              code: 'TOP_UP_REQUIRED',
              message: 'The payer wallet does not hold enough funds for this purchase.',
              details: batch.leaderShortfall,
            },
            'insufficient funds at signing',
          ),
        );
        return undefined;
      }
      // A move the lifecycle does not have is refused before anything is signed.
      for (const member of batch.members) assertWorkerMove(member.row.status, 'sending', member.row.mode);
      const signed = await signBatchExternal(deps, batch, walletRaw);
      batch.keys.secretKey.fill(0);
      crashAt(config, 'after_sign_before_persist');

      await persistSignedBatch(
        deps,
        batch.members,
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
        'signed; persisted before broadcast',
        lease,
        signed.validUntil * 1000 + config.validUntilMarginMs,
      );
      persisted = true;
      crashAt(config, 'after_persist_before_broadcast');
      return { members: batch.members, signed: { batchId, boc: signed.boc } };
    } catch (error) {
      // Nothing persisted: the other members go back to waiting at once rather than at lease expiry.
      if (!persisted) await applyDecision(deps, batch.members.slice(1), decide.reschedule(0)).catch(() => undefined);
      throw error;
    } finally {
      batch.keys.secretKey.fill(0);
    }
  } finally {
    if (!persisted) await freeWallet(deps, lease, walletRaw);
  }
}

/** A parked purchase whose accepted request is stored: to the wallet's sender while the request can still be signed. */
export async function sendAccepted(deps: StepDeps, purchase: HeldPurchase): Promise<NextStep | undefined> {
  const { config } = deps;
  const request = purchase.row.paymentRequest!;
  if (deps.now() - purchase.row.stepStartedAt.getTime() > config.maxAges.waitingToSendMs) {
    await applyDecision(
      deps,
      purchase,
      decide.fail(
        deps,
        {
          code: 'STEP_TIMED_OUT',
          message: `Waited more than ${config.maxAges.waitingToSendMs} ms for the wallet; nothing was signed.`,
        },
        'step timed out',
      ),
    );
    return undefined;
  }
  if (request.validUntil < minSignableValidUntil(deps.now(), config.minValiditySeconds)) {
    // Fragment's request is about to expire unsigned: ask for a fresh one (nothing was signed).
    await applyDecision(
      deps,
      purchase,
      decide.reschedule(
        0,
        {
          paymentRequest: null,
          fragmentReqId: null,
          fragmentRef: null,
          quoteNano: null,
          stepStartedAt: new Date(deps.now()),
        },
        'payment request expired before signing; preparing a fresh one',
      ),
    );
    return undefined;
  }
  return toSending(await signForWallet(deps, purchase));
}

/** The batch the wallet's sender signed and persisted, handed on to `sending` in this job. */
export function toSending(batch: Awaited<ReturnType<typeof signForWallet>>): NextStep | undefined {
  return batch && { status: 'sending', held: batch.members, handoff: batch.signed };
}
