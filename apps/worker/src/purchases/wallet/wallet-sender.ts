import { Address } from '@ton/core';
import type { PurchaseChanges } from '@starsgate/db';
import { inSpan } from '@starsgate/platform';
import { buildSignedExternal, createWalletContract, type WalletVersion } from '@starsgate/ton';
import { payloadCell } from '../policy/payment-request';
import type { StepDeps } from '../step-deps';
import type { Batch } from './wallet-batcher';

/** A payment request the `preparing` step accepted and has not stored yet: the sender stores it with its first write. */
export interface AcceptedRequest {
  changes: PurchaseChanges;
  reason: string;
  data: unknown;
}

/**
 * Signs one external paying every member of `batch` from the wallet at `walletRaw`, at the
 * wallet's current seqno and valid until the earliest member's deadline. Nothing is written:
 * the wallet's sender (steps/preparing-sender.ts) persists it before anything is broadcast.
 */
export async function signBatchExternal(deps: StepDeps, batch: Batch, walletRaw: string) {
  const leader = batch.members[0]!;
  const seqno = await deps.chain.getSeqno(Address.parse(walletRaw));
  const requests = batch.members.map((member) => member.row.paymentRequest!);
  const validUntil = Math.min(...requests.map((r) => r.validUntil));
  const contract = createWalletContract(
    leader.row.walletVersion as WalletVersion,
    batch.keys.publicKey,
    deps.config.network,
  );
  return inSpan('wallet.sign', { 'starsgate.batch_size': batch.members.length }, () =>
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
}
