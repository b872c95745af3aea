import { Address } from '@ton/core';
import type { PurchaseRow, RequestMac } from '@starsgate/db';
import type { PaymentRequest } from '@starsgate/domain';
import { decodeCommentPayload } from '@starsgate/fragment';
import type { WorkerConfig } from '../../config';
import type { PolicyViolation } from './payment-policy';

/**
 * What the worker's MAC covers for a purchase's accepted request: the request itself (its MAC
 * aside) and the row's fields it was judged against. The purchase id is the MAC's own input.
 */
export function paymentRequestCovered(
  row: Pick<PurchaseRow, 'product' | 'amount' | 'username' | 'paymentMethod' | 'mode'>,
  walletAddress: string,
  request: PaymentRequest,
): unknown {
  const { mac: _mac, ...unsigned } = request;
  return {
    purchase: {
      product: row.product,
      amount: row.amount,
      username: row.username,
      paymentMethod: row.paymentMethod,
      mode: row.mode,
      walletAddress,
    },
    request: unsigned,
  };
}

/** The accepted request with the worker's MAC, as `preparing` stores it. */
export function withRequestMac(
  mac: RequestMac,
  row: Pick<PurchaseRow, 'id' | 'product' | 'amount' | 'username' | 'paymentMethod' | 'mode'>,
  walletAddress: string,
  request: PaymentRequest,
): PaymentRequest {
  return { ...request, mac: mac.sign(row.id, paymentRequestCovered(row, walletAddress, request)) };
}

export interface SigningCheckInput {
  config: Pick<
    WorkerConfig,
    | 'fragmentReceivingAddresses'
    | 'maxSpendGramNano'
    | 'maxSpendUsdtUnits'
    | 'jettonGasAttachNano'
    | 'maxValiditySeconds'
  >;
  mac: RequestMac;
  row: PurchaseRow;
  /** USDT: the payer's own jetton wallet, the only place a USDT payment's message may go. */
  payerJettonWallet?: Address;
  nowSeconds: number;
}

const sameAddress = (a: string, b: Address): boolean => {
  try {
    return Address.parse(a).equals(b);
  } catch {
    return false;
  }
};

/**
 * The last look before the worker signs a stored request with the payer's seed (docs/security.md,
 * attack 18): the row is only as trustworthy as whoever can write the database. The request must
 * carry the worker's own MAC for this purchase, and, should that key ever leak, still pass the
 * checks that bound what it can pay: the allow-list, the spend caps, the payload's product and
 * quantity against the row, and the `validUntil` ceiling. Empty when it may be signed.
 */
export function checkAtSigning(input: SigningCheckInput): PolicyViolation[] {
  const { config, row } = input;
  const request = row.paymentRequest;
  const violations: PolicyViolation[] = [];
  const flag = (check: string, message: string) => violations.push({ check, message });
  if (!request || !row.walletAddress) return [{ check: 'request', message: 'no accepted payment request' }];

  if (!input.mac.verify(row.id, paymentRequestCovered(row, row.walletAddress, request), request.mac))
    flag('mac', "the stored payment request does not carry the worker's MAC for this purchase");
  if (request.validUntil > input.nowSeconds + config.maxValiditySeconds)
    flag('valid_until', `validUntil ${request.validUntil} is more than ${config.maxValiditySeconds} s away`);

  let decoded;
  try {
    decoded = decodeCommentPayload(request.message.payload);
  } catch (error) {
    flag('payload', `payload does not decode: ${(error as Error).message}`);
  }
  if (decoded && decoded.product !== row.product)
    flag('payload_product', `payload is for ${decoded.product}, the order is for ${row.product}`);
  if (decoded?.quantity !== undefined && decoded.quantity !== row.amount)
    flag('payload_quantity', `payload quantity ${decoded.quantity} differs from the order's ${row.amount}`);

  const allowed = new Set(config.fragmentReceivingAddresses);
  let value: bigint | undefined;
  try {
    value = BigInt(request.message.amount);
  } catch {
    flag('amount', 'the message amount is not an integer');
  }
  if (row.paymentMethod === 'gram') {
    let destination: string | undefined;
    try {
      destination = Address.parse(request.message.address).toRawString();
    } catch {
      flag('destination', 'message address does not parse');
    }
    if (destination !== undefined && !allowed.has(destination))
      flag('destination', 'destination is not an allow-listed Fragment receiving address');
    if (decoded?.jetton) flag('payload', 'a GRAM payment carries a jetton transfer');
    if (value !== undefined && value > config.maxSpendGramNano)
      flag('spend_cap', `amount ${value} nanoGRAM exceeds MAX_SPEND_GRAM (${config.maxSpendGramNano})`);
  } else {
    if (!input.payerJettonWallet || !sameAddress(request.message.address, input.payerJettonWallet))
      flag('destination', "the message does not go to the payer's own USDT jetton wallet");
    if (value !== undefined && value > config.jettonGasAttachNano)
      flag('gas_attach', `attached ${value} nanoGRAM exceeds JETTON_GAS_ATTACH (${config.jettonGasAttachNano})`);
    const transfer = decoded?.jetton;
    if (decoded && !transfer) flag('payload', 'a USDT payment must be a jetton transfer');
    if (transfer) {
      if (!allowed.has(transfer.destination))
        flag('jetton_destination', 'jetton destination is not an allow-listed Fragment receiving address');
      if (transfer.responseDestination !== row.walletAddress)
        flag('response_destination', 'excess GRAM would not return to the payer');
      if (transfer.amount > config.maxSpendUsdtUnits)
        flag('spend_cap', `jetton amount ${transfer.amount} exceeds MAX_SPEND_USDT (${config.maxSpendUsdtUnits})`);
    }
  }
  return violations;
}
