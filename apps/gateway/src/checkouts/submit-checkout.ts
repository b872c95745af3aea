import { randomUUID } from 'node:crypto';
import { Address, Cell, loadMessage } from '@ton/core';
import { AppError } from '@starsgate/domain';
import { checkoutSinceLt, type PurchaseRow } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import {
  normalizedExternalHash,
  precheckSignedBoc,
  verifySignedBoc,
  type SendTransactionRequest,
} from '@starsgate/ton';
import type { CheckoutDeps } from './create-checkout';

const notFound = () =>
  AppError.field('CHECKOUT_NOT_FOUND', 'checkout_id', 'No checkout with this id exists in this environment.');

function expired(transaction: SendTransactionRequest): AppError {
  return AppError.field(
    'CHECKOUT_EXPIRED',
    'checkout_id',
    `The checkout's validUntil (${new Date(transaction.validUntil * 1000).toISOString()}) has passed; nothing was broadcast.`,
  );
}

/** The normalized hash of a submitted BOC, or CHECKOUT_BOC_INVALID: enough to tell a replay from another BOC. */
function normalizedHashOf(boc: string): string {
  try {
    return normalizedExternalHash(loadMessage(Cell.fromBase64(boc).beginParse()));
  } catch {
    throw AppError.field('CHECKOUT_BOC_INVALID', 'boc', 'The BOC is not an external message.');
  }
}

/** A chain read that failed: 503 with a retry hint, never a 500 and never read as "not paid". */
async function lookUpChain<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', { cause: error, retryAfterSeconds: 5 });
  }
}

/** Decides a submission to a checkout that already accepted a BOC: the same one is a replay, another a 409. */
function replayOrConflict(checkout: PurchaseRow, boc: string): PurchaseRow {
  if (normalizedHashOf(boc) === checkout.normalizedHash) return checkout;
  throw AppError.field(
    'CHECKOUT_ALREADY_SUBMITTED',
    'boc',
    'Another signed transaction was accepted for this checkout.',
  );
}

/**
 * POST /submitted: verify the signed BOC against the prepared transaction (every check of the TON
 * Connect checklist, each failure its own 400 code, nothing stored or broadcast; those that need
 * no chain read first, against the payer key stored with the checkout), store it with its
 * normalized hash (the checkout moves to `submitted`), broadcast it (harmless if the wallet already
 * did) and hand the checkout to the worker, which confirms it with Fragment and tracks delivery.
 */
export async function submitCheckout(
  deps: CheckoutDeps,
  checkoutId: string,
  boc: string,
  context: { log: Logger },
): Promise<{ checkout: PurchaseRow; replayed: boolean }> {
  const checkout = await deps.checkouts.findById(checkoutId);
  if (!checkout) throw notFound();
  if (checkout.normalizedHash) return { checkout: replayOrConflict(checkout, boc), replayed: true };
  const transaction = checkout.checkoutTransaction as SendTransactionRequest | null;
  // An expired checkout still takes a payment that ran on chain: `expired` was judged before it could be seen.
  const late = checkout.status === 'expired' && transaction !== null;
  if (!late && (checkout.status !== 'awaiting_signature' || !transaction))
    throw new AppError('CHECKOUT_NOT_AWAITING_SIGNATURE', {
      message: `The checkout is ${checkout.status}; it accepts a signed transaction only while awaiting_signature.`,
    });
  // Nothing reads the chain for a BOC the payer's key did not sign (docs/security.md, attack 17).
  // Checkouts stored before the key was kept with every checkout are verified against the chain only.
  if (checkout.payerPublicKey)
    precheckSignedBoc(boc, transaction, {
      publicKey: Buffer.from(checkout.payerPublicKey, 'hex'),
      network: deps.network,
    });
  const payer = Address.parseRaw(transaction.from);
  const sinceLt = checkoutSinceLt(checkout);
  const landedAt = async (hash: string) => {
    const scan = await lookUpChain(() => deps.chain.findTransactionByNormalizedHash(payer, hash, { sinceLt }));
    if (scan.outcome === 'inconclusive')
      throw new AppError('CHAIN_UNAVAILABLE', {
        message: `The payer wallet's history could not be read back to the checkout's start (${scan.reason}).`,
        retryAfterSeconds: 5,
      });
    return scan.outcome === 'found' ? scan.tx.now : null;
  };
  let now = Math.floor(Date.now() / 1000);
  if (late || now >= transaction.validUntil) {
    // Too late to sign, but a payment the wallet broadcast in time is still this checkout's.
    const ranAt = await landedAt(normalizedHashOf(boc));
    if (ranAt === null) throw expired(transaction);
    now = ranAt;
  }

  const verified = await verifySignedBoc(boc, transaction, {
    network: deps.network,
    chain: deps.chain,
    now,
    // The wallet usually broadcasts by itself: a BOC that already ran has the seqno it ran with.
    isLanded: async (hash) => (await landedAt(hash)) !== null,
  });

  const accepted = await deps.checkouts.acceptSignedBoc(
    checkout.id,
    {
      boc,
      normalizedHash: verified.normalizedHash,
      seqno: verified.seqno,
      validUntil: verified.validUntil,
      sinceLt: sinceLt.toString(),
      actor: 'gateway',
      reason: late
        ? 'signed transaction submitted after expiry; it ran on chain before valid_until'
        : 'signed transaction submitted and verified',
      fromExpired: late,
      data: { normalized_hash: verified.normalizedHash, seqno: verified.seqno, wallet_version: verified.walletVersion },
    },
    randomUUID(),
  );
  if (!accepted) {
    // Accepted meanwhile (the worker saw it on chain, or a concurrent submission), or ended.
    const current = await deps.checkouts.findById(checkout.id);
    if (current?.normalizedHash) return { checkout: replayOrConflict(current, boc), replayed: true };
    throw new AppError('CHECKOUT_NOT_AWAITING_SIGNATURE', {
      message: `The checkout is ${current?.status ?? 'gone'}; it accepts a signed transaction only while awaiting_signature.`,
    });
  }
  try {
    await deps.chain.sendBoc(boc);
  } catch (error) {
    // Often "already processed" (the wallet broadcast it); otherwise the worker rebroadcasts the stored BOC.
    context.log.info('broadcast of the submitted BOC refused; the worker judges it on chain', {
      checkout_id: checkout.id,
      error: (error as Error).message,
    });
  }
  await deps.jobs.enqueueOrLeaveToSweeper(accepted, context, 'checkout_id');
  return { checkout: accepted, replayed: false };
}
