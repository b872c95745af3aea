import { Address, beginCell, storeMessage, type Transaction } from '@ton/core';
import { isAppError } from '@starsgate/domain';
import type { ChainClient } from '../chain/chain-client';
import type { Network } from '../network';
import type { SendTransactionRequest } from './send-transaction-request';
import { verifySignedBoc, type VerifiedCheckoutBoc } from './verify-signed-boc';

export interface CheckoutPayment {
  boc: string;
  verified: VerifiedCheckoutBoc;
  tx: Transaction;
}

/**
 * A scan of the payer wallet for a checkout's payment: `found`; `absent`, every transaction since
 * the checkout was prepared was read and none pays it; `incomplete`, the provider's history ended
 * before the checkout's start (whether it paid is unknown).
 */
export type CheckoutPaymentScan =
  | { outcome: 'found'; payment: CheckoutPayment }
  | { outcome: 'absent'; scanned: number }
  | { outcome: 'incomplete'; scanned: number; reason: string };

/**
 * Looks for a checkout's payment among the payer wallet's transactions since `sinceLt` (its last
 * transaction when the checkout was prepared), paging back with no cap: anyone can bury a payment
 * under dust transfers (docs/security.md, attack 7). A payment is an external that passes
 * every check a submitted BOC must pass, judged as of when it ran.
 */
export async function scanForCheckoutPayment(
  chain: Pick<ChainClient, 'walkTransactions' | 'getAccountState'>,
  transaction: SendTransactionRequest,
  options: { network: Network; sinceLt: bigint },
): Promise<CheckoutPaymentScan> {
  const payer = Address.parseRaw(transaction.from);
  let payment: CheckoutPayment | undefined;
  let scanned = 0;
  const walk = await chain.walkTransactions(
    payer,
    async (tx) => {
      scanned += 1;
      const message = tx.inMessage;
      if (message?.info.type !== 'external-in') return false;
      const boc = beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
      try {
        const verified = await verifySignedBoc(boc, transaction, {
          network: options.network,
          chain,
          now: tx.now,
          isLanded: () => Promise.resolve(true),
        });
        payment = { boc, verified, tx };
        return true;
      } catch (error) {
        if (isAppError(error)) return false; // another payment of this wallet
        throw error;
      }
    },
    { sinceLt: options.sinceLt },
  );
  if (payment) return { outcome: 'found', payment };
  if (walk.end === 'incomplete') return { outcome: 'incomplete', scanned, reason: walk.reason };
  return { outcome: 'absent', scanned };
}
