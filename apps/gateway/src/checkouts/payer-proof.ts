import { AppError, type CreateCheckoutRequest } from '@starsgate/domain';
import {
  checkTonProof,
  resolveCheckoutPayer,
  type ChainClient,
  type CheckoutPayer,
  type Network,
} from '@starsgate/ton';
import type { Address } from '@ton/core';
import type { TonProofPayloads } from './ton-proof-payloads';

export interface TonProofSettings {
  /** TON_PROOF_REQUIRED: a checkout without a proof is refused. */
  required: boolean;
  /** TON_PROOF_DOMAINS, lower case. */
  domains: string[];
  ttlSeconds: number;
  payloads: TonProofPayloads;
}

const FAULT_MESSAGES = {
  domain: 'names a domain this gateway does not accept (TON_PROOF_DOMAINS)',
  timestamp: 'was signed too long ago, or in the future',
  signature: "does not verify against the payer wallet's public key",
} as const;

/**
 * The payer wallet of a checkout, proven by TON Connect's `ton_proof` (docs/security.md, attack
 * 19a): the payload is one this gateway issued and has not expired, the domain is the shop's, the
 * proof is recent, and it is signed by the key the wallet holds (its state on chain, or the state
 * init it will be deployed with). A proof that fails is 400 CHECKOUT_PROOF_INVALID naming the part.
 */
export async function provenCheckoutPayer(
  settings: TonProofSettings,
  payer: Address,
  input: Pick<CreateCheckoutRequest, 'ton_proof' | 'payer_public_key' | 'payer_state_init'>,
  deps: { network: Network; chain: ChainClient; nowMs: number },
): Promise<CheckoutPayer> {
  const proof = input.ton_proof!;
  if (!(await settings.payloads.isIssued(proof.payload)))
    throw AppError.field('CHECKOUT_PROOF_INVALID', 'ton_proof.payload', 'was not issued by this gateway, or expired');
  const wallet = await resolveCheckoutPayer(
    payer,
    { publicKey: input.payer_public_key, stateInit: input.payer_state_init },
    { network: deps.network, chain: deps.chain },
  );
  const fault = checkTonProof(
    proof,
    { address: payer, publicKey: wallet.publicKey },
    { domains: settings.domains, nowSeconds: Math.floor(deps.nowMs / 1000), maxAgeSeconds: settings.ttlSeconds },
  );
  if (fault) throw AppError.field('CHECKOUT_PROOF_INVALID', `ton_proof.${fault}`, `ton_proof ${FAULT_MESSAGES[fault]}`);
  return wallet;
}
