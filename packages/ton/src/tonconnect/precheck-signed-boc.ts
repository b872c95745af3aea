import { Address } from '@ton/core';
import { AppError } from '@starsgate/domain';
import type { Network } from '../network';
import { walletAddress, WALLET_VERSIONS } from '../wallets/wallet-contracts';
import type { SendTransactionRequest } from './send-transaction-request';
import { checkMessages, parsePayerExternal, signedPayloadOf } from './verify-signed-boc';

/**
 * Every check of a submitted BOC that needs no chain read, against the payer's public key stored
 * with the checkout (docs/security.md, attack 17): its shape, that it is addressed to the payer,
 * the signature, the wallet id, that it expires no later than the checkout, and its messages. A
 * BOC only the payer's key could have signed is the only kind that may cost a chain read; the
 * seqno, and the key's match with a deployed wallet's, are left to verifySignedBoc. Each failure
 * is verifySignedBoc's own code (field `boc`).
 */
export function precheckSignedBoc(
  boc: string,
  request: SendTransactionRequest,
  payer: { publicKey: Buffer; network: Network },
): void {
  const message = parsePayerExternal(boc, request, payer.network);
  const address = Address.parseRaw(request.from);
  // The stored key names the wallet's version: the one whose default wallet is this address.
  const version = WALLET_VERSIONS.find((candidate) =>
    walletAddress(candidate, payer.publicKey, payer.network).equals(address),
  );
  if (!version)
    throw AppError.field('CHECKOUT_WRONG_PAYER', 'boc', "The checkout's payer key does not own the payer address.");
  const payload = signedPayloadOf(message, { version, publicKey: payer.publicKey }, payer.network);
  if (payload.validUntil > request.validUntil)
    throw AppError.field('CHECKOUT_EXPIRED', 'boc', 'The signed message stays valid after the checkout validUntil.');
  checkMessages(payload, request);
}
