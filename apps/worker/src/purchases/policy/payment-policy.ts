import { Address } from '@ton/core';
import {
  formatUnits,
  GRAM_DECIMALS,
  parseUnits,
  PAYMENT_METHOD_NAMES,
  productDescription,
  USDT_DECIMALS,
  type PaymentMethod,
  type PaymentRequest,
  type Product,
} from '@starsgate/domain';
import {
  decodeCommentPayload,
  type DecodedComment,
  type FragmentTransaction,
  type TonConnectAccount,
} from '@starsgate/fragment';
import type { WorkerConfig } from '../../config';
import { throughPayerJettonWallet } from './payer-jetton-transfer';

export interface PolicyViolation {
  check: string;
  message: string;
  /** A receiving address off the allow-list, as Fragment asked for it: what an operator adds to FRAGMENT_RECEIVING_ADDRESSES. */
  destination?: { friendly: string; raw: string };
}

/** A receiving address named both ways: user-friendly (non-bounceable, as Fragment shows wallets) and raw. */
function namedAddress(address: Address, network: WorkerConfig['network']): { friendly: string; raw: string } {
  return {
    friendly: address.toString({ bounceable: false, urlSafe: true, testOnly: network === 'testnet' }),
    raw: address.toRawString(),
  };
}

export type PolicyResult = { ok: true; request: PaymentRequest } | { ok: false; violations: PolicyViolation[] };

export interface PolicyInput {
  config: Pick<
    WorkerConfig,
    | 'fragmentReceivingAddresses'
    | 'priceToleranceBps'
    | 'maxSpendGramNano'
    | 'maxSpendUsdtUnits'
    | 'jettonGasAttachNano'
    | 'minValiditySeconds'
    | 'maxValiditySeconds'
    | 'maxPriceToBookPercent'
    | 'fragmentFromMustMatch'
    | 'network'
  >;
  product: Product;
  quantity: number;
  paymentMethod: PaymentMethod;
  payer: Address;
  /** USDT: the payer's jetton wallet as the chain's master reports it (`get_wallet_address`). */
  payerJettonWallet?: Address;
  /** Fragment's `init…Request` amount (decimal string in the payment currency). */
  initAmount: string;
  transaction: FragmentTransaction;
  account: TonConnectAccount;
  nowSeconds: number;
  /** USDT: the query id of a transfer rebuilt through the payer's jetton wallet (`ownQueryId`). */
  ownQueryId: bigint;
  /** The price book's price of the order in the payment currency's base units (attack 24). */
  bookPrice: bigint;
}

/** The address `text` names, or null when it is not one. */
export function parseAddress(text: string): Address | null {
  try {
    return Address.parse(text);
  } catch {
    return null;
  }
}

function withinTolerance(amount: bigint, quote: bigint, bps: number): boolean {
  const diff = amount > quote ? amount - quote : quote - amount;
  return diff * 10_000n <= quote * BigInt(bps);
}

/**
 * Every check that must pass before anything is signed (docs/fragment-protocol.md §15.6). All
 * violations are reported, not just the first, so the operator sees the whole picture.
 *
 * `transaction.from` may name another wallet than the payer (the wallet linked to the Fragment
 * account, docs/fragment-protocol.md §17): the payer still pays what Fragment asked, so it is
 * recorded, not refused, unless FRAGMENT_FROM_MUST_MATCH is set. A USDT transfer Fragment aimed at
 * another wallet's jetton wallet is rebuilt through the payer's own, and the checks below judge the
 * message that will actually be signed.
 */
export function checkPaymentPolicy(input: PolicyInput): PolicyResult {
  const { config, transaction: tx } = input;
  const violations: PolicyViolation[] = [];
  const flag = (check: string, message: string) => violations.push({ check, message });
  const offList = (check: string, what: string, address: Address) => {
    const named = namedAddress(address, config.network);
    violations.push({
      check,
      message: `${what} ${named.friendly} (${named.raw}) is not an allow-listed Fragment receiving address: add it to FRAGMENT_RECEIVING_ADDRESSES if it is Fragment's`,
      destination: named,
    });
  };
  const allowed = new Set(config.fragmentReceivingAddresses);
  const currency = PAYMENT_METHOD_NAMES[input.paymentMethod];

  const from = parseAddress(tx.from);
  const fromIsPayer = !!from && from.equals(input.payer);
  if (!fromIsPayer && config.fragmentFromMustMatch)
    flag('payer', 'transaction.from is not the payer wallet (FRAGMENT_FROM_MUST_MATCH)');
  if (tx.validUntil < input.nowSeconds + config.minValiditySeconds) {
    flag('valid_until', `validUntil ${tx.validUntil} is less than ${config.minValiditySeconds} s in the future`);
  }
  if (tx.validUntil > input.nowSeconds + config.maxValiditySeconds) {
    flag('valid_until', `validUntil ${tx.validUntil} is more than ${config.maxValiditySeconds} s in the future`);
  }
  if (tx.messages.length !== 1) flag('message_count', `expected exactly 1 message, got ${tx.messages.length}`);
  const fragmentMessage = tx.messages[0];
  if (!fragmentMessage) return { ok: false, violations };
  const rebuilt =
    currency === 'USDT' && input.payerJettonWallet && !config.fragmentFromMustMatch
      ? throughPayerJettonWallet(fragmentMessage, input.payer, input.payerJettonWallet, input.ownQueryId)
      : null;
  const message = rebuilt?.message ?? fragmentMessage;
  if (message.stateInit !== undefined) flag('state_init', 'the message carries a StateInit');
  const destination = parseAddress(message.address);
  if (!destination) flag('destination', 'message address does not parse');
  if (message.payload === undefined) {
    flag('payload', 'the message has no payload (no Ref#)');
    return { ok: false, violations };
  }

  let decoded: DecodedComment | undefined;
  try {
    decoded = decodeCommentPayload(message.payload);
  } catch (error) {
    flag('payload', `payload does not decode: ${(error as Error).message}`);
  }
  if (decoded) {
    if (decoded.product !== input.product)
      flag('payload_product', `payload is for ${decoded.product}, the order is for ${input.product}`);
    // A comment that names no amount (the top-up's) leaves it to the quote check below.
    if (decoded.quantity !== undefined && decoded.quantity !== input.quantity)
      flag('payload_quantity', `payload quantity ${decoded.quantity} differs from the order's ${input.quantity}`);
  }

  let quote: bigint | undefined;
  try {
    quote = parseUnits(input.initAmount, currency === 'USDT' ? USDT_DECIMALS : GRAM_DECIMALS);
  } catch {
    flag('quote', `Fragment's amount "${input.initAmount}" is not a decimal in ${currency}`);
  }
  const value = BigInt(message.amount);
  // Quoted products only: a face-value one is priced at its amount, which the payload's value is.
  if (
    quote !== undefined &&
    productDescription(input.product).pricing !== 'face_value' &&
    quote * 100n > input.bookPrice * BigInt(config.maxPriceToBookPercent)
  ) {
    flag(
      'price_book',
      `Fragment asks ${quote}, more than ${config.maxPriceToBookPercent} % of the price book's ${input.bookPrice}`,
    );
  }

  let jetton: PaymentRequest['jetton'];
  if (currency === 'GRAM') {
    if (destination && !allowed.has(destination.toRawString())) offList('destination', 'the destination', destination);
    if (decoded?.jetton) flag('payload', 'a GRAM payment carries a jetton transfer');
    if (quote !== undefined && !withinTolerance(value, quote, config.priceToleranceBps)) {
      flag('amount', `amount ${value} nanoGRAM is outside ${config.priceToleranceBps} bps of the quote ${quote}`);
    }
    if (value > config.maxSpendGramNano)
      flag('spend_cap', `amount ${value} nanoGRAM exceeds MAX_SPEND_GRAM (${config.maxSpendGramNano})`);
  } else {
    if (!input.payerJettonWallet) flag('jetton_wallet', 'the payer jetton wallet is unknown');
    else if (destination && !destination.equals(input.payerJettonWallet))
      flag('destination', "the message does not go to the payer's own USDT jetton wallet");
    if (value > config.jettonGasAttachNano)
      flag(
        'gas_attach',
        `Fragment attaches ${formatUnits(value, GRAM_DECIMALS)} GRAM for the jetton transfer's gas, over JETTON_GAS_ATTACH (${formatUnits(config.jettonGasAttachNano, GRAM_DECIMALS)} GRAM)`,
      );
    const transfer = decoded?.jetton;
    if (decoded && !transfer) flag('payload', 'a USDT payment must be a jetton transfer');
    if (transfer) {
      if (!allowed.has(transfer.destination))
        offList('jetton_destination', 'the jetton destination', Address.parseRaw(transfer.destination));
      if (transfer.responseDestination !== input.payer.toRawString())
        flag('response_destination', 'excess GRAM would not return to the payer');
      if (quote !== undefined && !withinTolerance(transfer.amount, quote, config.priceToleranceBps)) {
        flag(
          'amount',
          `jetton amount ${transfer.amount} is outside ${config.priceToleranceBps} bps of the quote ${quote}`,
        );
      }
      if (transfer.amount > config.maxSpendUsdtUnits)
        flag('spend_cap', `jetton amount ${transfer.amount} exceeds MAX_SPEND_USDT (${config.maxSpendUsdtUnits})`);
      jetton = {
        jettonWallet: destination?.toRawString() ?? '',
        amount: transfer.amount.toString(),
        destination: transfer.destination,
        queryId: transfer.queryId.toString(),
      };
    }
  }

  if (violations.length > 0 || !decoded || !destination || quote === undefined) return { ok: false, violations };
  return {
    ok: true,
    request: {
      currency,
      product: input.product,
      validUntil: tx.validUntil,
      account: input.account,
      fragmentFrom: from?.toRawString() ?? tx.from,
      ...(rebuilt ? { fragmentMessage: rebuilt.fragmentMessage } : {}),
      ...(tx.confirmMethod !== undefined ? { confirmMethod: tx.confirmMethod } : {}),
      confirmParams: tx.confirmParams,
      message: { address: destination.toRawString(), amount: value.toString(), payload: message.payload },
      ref: decoded.ref,
      comment: decoded.text,
      quote: quote.toString(),
      ...(jetton ? { jetton } : {}),
    },
  };
}
