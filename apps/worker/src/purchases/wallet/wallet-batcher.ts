import { Address } from '@ton/core';
import { MAX_MESSAGES, type WalletKeyPair, type WalletVersion } from '@starsgate/ton';
import { compareFunds, readBalances, type FundsShortfall } from '../policy/funds-check';
import { minSignableValidUntil, outflow } from '../policy/payment-request';
import type { StepDeps } from '../step-deps';
import { HeldPurchase } from '../persistence/held-purchase';
import { decide, type PurchaseDecision } from '../persistence/purchase-decision';
import { dropStaleJobs } from '../persistence/purchase-jobs';
import { openKeyPair, openSeedKeyId, SecretUnavailableError } from './wallet-identity';
import { refusalAtSigning } from './signing-guard';

export interface Batch {
  members: HeldPurchase[];
  /** The shared key of every member (the leader's). The caller wipes it after signing. */
  keys: WalletKeyPair;
  /** Set when even the leader alone cannot be paid. */
  leaderShortfall?: FundsShortfall[];
  /** The wallet's last transaction lt, read before signing: the external's transaction comes after it. */
  sinceLt: bigint;
}

/**
 * Gathers the purchases of one wallet that wait to be sent: the leader (this job's purchase)
 * plus others whose payment request is accepted and whose secret decrypts to the same key, up to
 * BATCH_MAX and the wallet version's message limit, and only as many as the balance covers.
 * Rows left out are released for a later external, or refused: the step's `setAside` applies that
 * decision at once, before the batch is gathered further (a released row is due again meanwhile).
 */
export async function assembleBatch(
  deps: StepDeps,
  leader: HeldPurchase,
  setAside: (member: HeldPurchase, decision: PurchaseDecision) => Promise<void>,
): Promise<Batch> {
  const { config } = deps;
  const wallet = leader.row.walletAddress!;
  const limit = Math.min(config.batchMax, MAX_MESSAGES[leader.row.walletVersion as WalletVersion]);
  const claimed = await deps.signedBatches.claimReadyToSend(
    wallet,
    leader.row.id,
    limit - 1,
    leader.owner,
    config.leaseMs,
  );
  const others = claimed.map(({ row, sealedSecret }) => new HeldPurchase(deps, row, leader.owner, sealedSecret));
  const dropped = dropStaleJobs(
    deps,
    claimed.map(({ row }) => row),
  );

  // The key is derived once for the whole batch; members whose seed selects the same key share it.
  const keys = await openKeyPair(deps, leader);
  const leaderKeyId = await openSeedKeyId(deps, leader);
  const members: HeldPurchase[] = [leader];
  const minValidUntil = minSignableValidUntil(deps.now(), config.minValiditySeconds);
  for (const other of others) {
    const request = other.row.paymentRequest;
    if (!request || request.validUntil < minValidUntil || other.row.walletVersion !== leader.row.walletVersion) {
      await setAside(other, decide.reschedule(0));
      continue;
    }
    const refusal = await refusalAtSigning(deps, other);
    if (refusal) {
      await setAside(other, refusal);
      continue;
    }
    let same = false;
    try {
      same = (await openSeedKeyId(deps, other)) === leaderKeyId;
      if (!same) {
        // Another spelling of the same key (e.g. its Base64 private seed) still batches.
        const theirs = await openKeyPair(deps, other);
        same = theirs.secretKey.equals(keys.secretKey);
        theirs.secretKey.fill(0);
      }
    } catch (error) {
      if (!(error instanceof SecretUnavailableError)) throw error;
    }
    // A different secret for the same address cannot happen with honest input; never mix keys.
    if (!same) {
      await setAside(other, decide.reschedule(config.walletBusyRetryMs));
      continue;
    }
    members.push(other);
  }

  // One balance snapshot for the whole external; members that do not fit wait for a later one.
  const payer = Address.parse(wallet);
  const needsUsdt = members.some((m) => m.row.paymentRequest?.jetton);
  const jettonWallet = needsUsdt ? await deps.chain.getJettonWalletAddress(config.usdtMaster, payer) : undefined;
  const balances = await readBalances(deps.chain, payer, jettonWallet);
  const fitted: HeldPurchase[] = [];
  let gram = 0n;
  let usdt = 0n;
  for (const member of members) {
    const flow = outflow(member.row.paymentRequest!);
    const funds = compareFunds(balances, { gram: gram + flow.gram, usdt: usdt + flow.usdt }, config.gramFeeReserveNano);
    if (funds.ok) {
      fitted.push(member);
      gram += flow.gram;
      usdt += flow.usdt;
    } else if (member === leader) {
      for (const other of members.slice(1)) await setAside(other, decide.reschedule(0));
      await dropped;
      return { members: [leader], keys, leaderShortfall: funds.details, sinceLt: balances.lastLt };
    } else {
      await setAside(member, decide.reschedule(config.walletBusyRetryMs));
    }
  }
  await dropped;
  return { members: fitted, keys, sinceLt: balances.lastLt };
}
