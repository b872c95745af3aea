import { Address, type Transaction } from '@ton/core';
import {
  AppError,
  canOperatorMove,
  errorBody,
  operatorResolvableStatuses,
  type ErrorDetail,
  type ResolvePurchaseRequest,
} from '@starsgate/domain';
import { checkoutSinceLt, type AdminPurchaseReads, type PurchaseRow, type PurchaseTransitions } from '@starsgate/db';
import {
  findPaymentTransaction,
  findWalletTransaction,
  hashToHex,
  provePayment,
  scanForCheckoutPayment,
  type ChainClient,
  type Network,
  type PaymentProof,
  type SendTransactionRequest,
} from '@starsgate/ton';
import { actorIdentity, type AdminActor } from './admin-auth';

export interface ResolutionDeps {
  reads: AdminPurchaseReads;
  transitions: PurchaseTransitions;
  chain: ChainClient;
  /** After valid_until, indexers may lag this long before "not on chain" means "never executed". */
  validUntilMarginMs: number;
  network: Network;
}

/** The wallet's last lt read before the external was signed (the worker records it): ours can only come later. */
function signedAfterLt(row: PurchaseRow): bigint | undefined {
  const since = (row.evidence as { batch?: { since_lt?: string } } | null)?.batch?.since_lt;
  return since !== undefined ? BigInt(since) : undefined;
}

async function askChain<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    throw new AppError('CHAIN_UNAVAILABLE', { cause: error, retryAfterSeconds: 5 });
  }
}

function mismatch(details: ErrorDetail[]): AppError {
  return new AppError('RESOLUTION_EVIDENCE_MISMATCH', {
    message: `The transaction does not prove this purchase was paid: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
    details,
  });
}

/** How many messages the signed external carried (a batch pays several purchases at once). */
async function expectedMessages(deps: ResolutionDeps, row: PurchaseRow): Promise<number> {
  return row.batchId ? ((await deps.reads.signedExternal(row.batchId))?.messageCount ?? 1) : 1;
}

function proofEvidence(tx: Transaction, proof: PaymentProof & { paid: true }) {
  return {
    transaction_hash: tx.hash().toString('hex'),
    transaction_lt: tx.lt.toString(),
    ...(proof.jettonTx ? { jetton_transaction_hash: proof.jettonTx.hash().toString('hex') } : {}),
  };
}

/** `completed` only with a transaction of the payer wallet that paid this purchase's Fragment request. */
async function proveCompleted(deps: ResolutionDeps, row: PurchaseRow, hash: string) {
  const request = row.paymentRequest;
  if (!request || !row.walletAddress)
    throw mismatch([
      { field: 'transaction_hash', message: 'cannot pay this purchase: it never got a Fragment request' },
    ]);
  let hashHex: string;
  try {
    hashHex = hashToHex(hash);
  } catch {
    throw AppError.field('VALIDATION_FAILED', 'transaction_hash', 'transaction_hash is not a 32-byte hash');
  }
  const wallet = Address.parse(row.walletAddress);
  const tx = await askChain(() => findWalletTransaction(deps.chain, wallet, hashHex, { sinceLt: signedAfterLt(row) }));
  if (!tx)
    throw mismatch([
      { field: 'transaction_hash', message: `is not a transaction of the payer wallet ${row.walletAddress}` },
    ]);
  const messages = await expectedMessages(deps, row);
  const proof = await askChain(() => provePayment(deps.chain, tx, request, messages));
  if (!proof.paid) throw mismatch(proof.mismatches);
  return proofEvidence(tx, proof);
}

function mayStillLand(deps: ResolutionDeps, validUntil: number): AppError | null {
  // Failure needs proof of non-execution: a valid signed message can still land.
  if (Date.now() > validUntil * 1000 + deps.validUntilMarginMs) return null;
  return new AppError('PAYMENT_MAY_STILL_LAND', {
    details: [
      {
        field: 'valid_until',
        message: `the signed payment is valid until ${new Date(validUntil * 1000).toISOString()}`,
      },
    ],
  });
}

function scanIncomplete(reason: string): AppError {
  return new AppError('PAYMENT_SCAN_INCOMPLETE', { details: [{ field: 'chain', message: reason }] });
}

function executed(txHash: string, what: string): AppError {
  return new AppError('PAYMENT_EXECUTED', {
    details: [{ field: 'transaction_hash', message: `${txHash} paid this ${what}` }],
  });
}

/**
 * A checkout in reconciliation before any BOC was accepted (no normalized hash): the buyer's
 * wallet may have signed and broadcast it all the same. Every external of the payer since the
 * checkout started is judged with the BOC verifier (docs/security.md, attack 8).
 */
async function proveCheckoutNotPaid(deps: ResolutionDeps, row: PurchaseRow, transaction: SendTransactionRequest) {
  const scan = await askChain(() =>
    scanForCheckoutPayment(deps.chain, transaction, { network: deps.network, sinceLt: checkoutSinceLt(row) }),
  );
  if (scan.outcome === 'found') throw executed(scan.payment.tx.hash().toString('hex'), "checkout's transaction");
  if (scan.outcome === 'incomplete') throw scanIncomplete(scan.reason);
  const pending = mayStillLand(deps, transaction.validUntil);
  if (pending) throw pending;
  return { signed: false, found_on_chain: false, scanned_transactions: scan.scanned };
}

/** `failed` is refused while the chain shows this purchase's payment executed, may still execute, or cannot tell. */
async function proveNotPaid(deps: ResolutionDeps, row: PurchaseRow) {
  const request = row.paymentRequest;
  const transaction = row.checkoutTransaction as SendTransactionRequest | null;
  if (request && row.walletAddress && !row.normalizedHash && transaction)
    return proveCheckoutNotPaid(deps, row, transaction);
  if (!request || !row.walletAddress || !row.normalizedHash) return { signed: false };
  const scan = await askChain(() =>
    findPaymentTransaction(deps.chain, {
      wallet: Address.parse(row.walletAddress!),
      normalizedHash: row.normalizedHash!,
      transactionHash: row.transactionHash,
      sinceLt: signedAfterLt(row),
    }),
  );
  if (scan.outcome === 'inconclusive') throw scanIncomplete(scan.reason);
  if (scan.outcome === 'absent') {
    const pending = row.validUntil !== null ? mayStillLand(deps, row.validUntil) : null;
    if (pending) throw pending;
    return { signed: true, found_on_chain: false };
  }
  const { tx } = scan;
  const proof = await askChain(async () => provePayment(deps.chain, tx, request, await expectedMessages(deps, row)));
  if (proof.paid) throw executed(tx.hash().toString('hex'), "purchase's Fragment request");
  return {
    signed: true,
    found_on_chain: true,
    transaction_hash: tx.hash().toString('hex'),
    not_paid: proof.mismatches,
  };
}

/**
 * An operator settles a reconciliation case: the evidence is checked on chain, then the purchase
 * moves through the same fenced transition as any worker step, in one statement with its audit
 * event (a terminal status destroys the sealed secret; the outbox records the event). The event's
 * actor is the authenticated token (`token:<id>`); the body's `operator` is kept as a label.
 */
export async function resolvePurchase(
  deps: ResolutionDeps,
  id: string,
  input: ResolvePurchaseRequest,
  by: AdminActor,
): Promise<PurchaseRow> {
  const row = await deps.reads.find(id);
  if (!row) throw AppError.field('PURCHASE_NOT_FOUND', 'purchase_id');
  // The lifecycle's operator moves decide which statuses an operator may resolve, and to what.
  if (!canOperatorMove(row.status, input.outcome, row.mode))
    throw new AppError('PURCHASE_NOT_IN_RECONCILIATION', {
      message: `The purchase is ${row.status}; only ${operatorResolvableStatuses(row.mode).join(' or ')} can be resolved.`,
      details: [{ field: 'status', message: `is ${row.status}` }],
    });
  const now = new Date();
  const resolution =
    input.outcome === 'completed'
      ? await proveCompleted(deps, row, input.transaction_hash!)
      : await proveNotPaid(deps, row);
  const actor = actorIdentity(by);
  const evidence = {
    resolution: { outcome: input.outcome, actor, operator: input.operator, at: now.toISOString(), ...resolution },
  };
  const changes =
    input.outcome === 'completed'
      ? {
          status: 'completed' as const,
          transactionHash: (resolution as { transaction_hash: string }).transaction_hash,
          transactionLt: (resolution as { transaction_lt: string }).transaction_lt,
          error: null,
        }
      : {
          status: 'failed' as const,
          error: errorBody({
            code: 'PURCHASE_FAILED',
            message: 'An operator reviewed this purchase and resolved it as failed: the payment did not execute.',
          }),
        };
  const updated = await deps.transitions.applyUnheld(
    { id: row.id, version: row.version },
    actor,
    { ...changes, completedAt: now, stepStartedAt: now },
    {
      fromStatus: row.status,
      mergeEvidence: evidence,
      event: {
        toStatus: input.outcome,
        reason: input.reason,
        data: { outcome: input.outcome, operator: input.operator, ...resolution },
      },
    },
  );
  if (!updated) throw new AppError('PURCHASE_CHANGED');
  return updated;
}
