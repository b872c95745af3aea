import { Address } from '@ton/core';
import { jettonWalletOf } from '../policy/payer-jetton-wallet';
import { checkAtSigning } from '../policy/signing-check';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide, type PurchaseDecision } from '../persistence/purchase-decision';
import type { StepDeps } from '../step-deps';

/**
 * The decision that ends `member` as failed, nothing signed, when its stored payment request fails
 * the check before signing (policy/signing-check.ts): someone other than the worker wrote it. Also
 * when an external was already signed for it: a server-signed purchase is signed once (its
 * lifecycle never goes from `sending` back to `preparing`), so a row moved back, its MAC'd request
 * intact or a fresh one prepared, would pay twice (docs/security.md, attack 18). Null when it may
 * be signed.
 */
export async function refusalAtSigning(deps: StepDeps, member: HeldPurchase): Promise<PurchaseDecision | null> {
  const row = member.row;
  const signedBatch = await deps.signedBatches.batchSignedFor(row.id);
  if (signedBatch !== null) {
    deps.logger.error(
      'purchase already signed was moved back to be signed again: the row was not written by the worker',
      {
        purchase_id: row.id,
        batch_id: signedBatch,
      },
    );
    const violation = {
      check: 'already_signed',
      message: `an external was already signed for this purchase (batch ${signedBatch}); the row was moved back since`,
    };
    return decide.fail(
      deps,
      {
        code: 'PAYMENT_REJECTED_BY_POLICY',
        message: `The purchase was already signed once (batch ${signedBatch}) and its row was moved back to be signed again: nothing more was signed. Whether that external paid is on chain.`,
        details: [violation],
      },
      'already signed once; refused at signing',
      { batch_id: signedBatch },
    );
  }
  const payerJettonWallet =
    row.paymentMethod === 'usdt' && row.walletAddress
      ? await jettonWalletOf(deps, Address.parse(row.walletAddress))
      : undefined;
  const violations = checkAtSigning({
    config: deps.config,
    mac: deps.requestMac,
    row,
    ...(payerJettonWallet ? { payerJettonWallet } : {}),
    nowSeconds: Math.floor(deps.now() / 1000),
  });
  if (violations.length === 0) return null;
  deps.logger.error('stored payment request refused at signing: the row was not written by the worker', {
    purchase_id: row.id,
    checks: violations.map((violation) => violation.check),
  });
  return decide.fail(
    deps,
    {
      code: 'PAYMENT_REJECTED_BY_POLICY',
      message: `The stored payment request failed the check before signing: ${violations.map((v) => v.check).join(', ')}. Nothing was signed.`,
      details: violations,
    },
    'stored payment request refused at signing',
  );
}
