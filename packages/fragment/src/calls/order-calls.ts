/**
 * The calls that make and pay one order (docs/fragment-protocol.md §2–§5): find the recipient,
 * create the order (`init…Request`), read its TonConnect request (`get…Link`) and confirm the
 * signed payment. Never retried on a lost answer: a write's FragmentError says `outcomeUnknown`.
 */
import { GRAM_DECIMALS, lineAmount, parseUnits, type Quantities } from '@starsgate/domain';
import { parseAmountToNano } from '../amounts';
import { raiseBusinessError } from '../business-errors';
import { FragmentError } from '../errors';
import type { FormFields } from '../form';
import { parseImgSrc, unescapeHtml } from '../html-parsing';
import { asBoolean } from '../json-values';
import { fragmentPack } from '../products';
import { METHOD_NAME, orderQuantities, validateAccount, validateQuantities } from '../request-validation';
import { parseInitAnswer, parseTransaction } from '../transaction-parsing';
import type {
  FragmentPaymentMethod,
  FragmentProduct,
  FragmentTransaction,
  RecipientInfo,
  TonConnectAccount,
  TonConnectDevice,
} from '../types';
import type { CallContext } from './call-context';
import { updatePrices, updateState } from './flow-calls';

/** `search…Recipient`: @username (or `t.me/…`) → the recipient token. The caller picks the lane (the flow or the search lane). */
export async function searchRecipient(
  context: CallContext,
  product: FragmentProduct,
  username: string,
  order: number | Quantities,
): Promise<RecipientInfo> {
  const routes = fragmentPack(product);
  const quantities = orderQuantities(product, order);
  const query = username.trim().replace(/^@/, '');
  if (query === '') throw new TypeError('username is required');
  const fields = routes.searchSendsQuantities ? { query, ...routes.orderFields(quantities) } : { query };
  if (routes.newStateBeforeSearch)
    raiseBusinessError(
      await context.api.read(product, routes.updateState, { mode: 'new' }, context.flowGuard()),
      routes.updateState,
    );
  const json = await context.api.read(product, routes.search, fields);
  raiseBusinessError(json, routes.search);
  const found = json.found;
  const recipient = found && typeof found === 'object' ? (found as Record<string, unknown>).recipient : undefined;
  if (typeof recipient !== 'string' || recipient === '') {
    throw new FragmentError('RECIPIENT_NOT_FOUND', `Fragment ${routes.search}: no recipient for this username`, {
      method: routes.search,
    });
  }
  const details = found as Record<string, unknown>;
  const photoUrl = typeof details.photo === 'string' ? parseImgSrc(details.photo) : undefined;
  return {
    recipient,
    name: typeof details.name === 'string' ? unescapeHtml(details.name) : '',
    ...(photoUrl !== undefined ? { photoUrl } : {}),
  };
}

export interface InitRequestArgs {
  product: FragmentProduct;
  recipient: string;
  /** A one-quantity product's amount, or the order line's quantities by name. */
  amount: number | Quantities;
  paymentMethod: FragmentPaymentMethod;
}

/**
 * `init…Request` after syncing state (and the product's prices when its pack asks). On "Price
 * was changed" re-syncs and retries (≤ priceChangedRetries). The caller holds the flow.
 */
export async function initRequest(
  context: CallContext,
  args: InitRequestArgs,
): Promise<{ reqId: string; amount: string }> {
  const { product, recipient, paymentMethod } = args;
  const quantities = orderQuantities(product, args.amount);
  validateQuantities(product, quantities);
  const amount = lineAmount({ product, quantities });
  if (paymentMethod !== 'ton' && paymentMethod !== 'usdt_ton')
    throw new TypeError('paymentMethod must be ton or usdt_ton');
  if (!recipient) throw new TypeError('recipient is required');
  const routes = fragmentPack(product);
  // A product whose init names no payment method is paid in GRAM alone.
  if (!routes.initSendsPaymentMethod && paymentMethod !== 'ton')
    throw new FragmentError('PAYMENT_METHOD_UNAVAILABLE', `Fragment ${routes.init}: paid in GRAM only`, {
      method: routes.init,
    });
  const flow = context.flows[product];
  flow.recipient = recipient;
  flow.quantities = quantities;
  for (let attempt = 0; ; attempt++) {
    // Every flow starts anew (docs/fragment-protocol.md §20.1): `mode: "new"`, never the
    // `done` of the session's previous order, and always synced, since another replica may
    // have moved the page's state since this process last saw it.
    flow.mode = 'new';
    await updateState(context, product);
    const prices = routes.prices;
    if (prices.kind === 'update_prices' && prices.beforeInit) await updatePrices(context, product, quantities);
    const json = await context.api.call(
      product,
      routes.init,
      {
        recipient,
        ...routes.orderFields(quantities),
        ...(routes.initSendsPaymentMethod ? { payment_method: paymentMethod } : {}),
      },
      'write',
      context.flowGuard(),
    );
    try {
      raiseBusinessError(json, routes.init);
    } catch (error) {
      if (error instanceof FragmentError && error.kind === 'PRICE_CHANGED' && attempt < context.priceChangedRetries) {
        context.logger.info(
          `fragment ${routes.init}: price changed, re-syncing (${attempt + 1}/${context.priceChangedRetries})`,
        );
        continue;
      }
      throw error;
    }
    const answer = parseInitAnswer(json, routes.init);
    const faceValue = parseUnits(String(amount), GRAM_DECIMALS);
    if (routes.prices.kind === 'face_value' && parseAmountToNano(answer.amount, GRAM_DECIMALS) !== faceValue)
      throw new FragmentError(
        'UNEXPECTED_RESPONSE',
        `Fragment ${routes.init}: invoice of ${answer.amount} GRAM for an order whose face value is ${amount} GRAM`,
        { method: routes.init },
      );
    return answer;
  }
}

export interface GetTransactionArgs {
  product: FragmentProduct;
  reqId: string;
  account: TonConnectAccount;
  device?: TonConnectDevice;
  showSender?: boolean;
}

/**
 * `get…Link` with `transaction=1`: the TonConnect request to sign, and how to confirm it. It
 * names its order (`id`) and moves only that order (to awaiting payment, §14), not the page's
 * flow state: it needs no lock.
 */
export async function getTransaction(context: CallContext, args: GetTransactionArgs): Promise<FragmentTransaction> {
  const { product, reqId, account } = args;
  validateAccount(account);
  if (!reqId) throw new TypeError('reqId is required');
  const method = fragmentPack(product).link;
  const json = await context.api.read(product, method, {
    id: reqId,
    show_sender: args.showSender ?? false,
    transaction: true,
    account: { ...account },
    device: { ...(args.device ?? context.device) },
  });
  raiseBusinessError(json, method);
  if (asBoolean(json.evm)) {
    throw new FragmentError('PAYMENT_METHOD_UNAVAILABLE', `Fragment ${method}: order is for an EVM payment method`, {
      method,
    });
  }
  return parseTransaction(json, method);
}

export interface ConfirmArgs {
  /** Absent when Fragment's link answer named none: then there is nothing to confirm. */
  confirmMethod?: string;
  confirmParams: Record<string, string>;
  boc: string;
  account: TonConnectAccount;
  device?: TonConnectDevice;
  product?: FragmentProduct;
}

/**
 * POSTs `confirm_method` with its params, the signed external-in message BOC, account and device
 * (§8.1). Not retried on a lost answer (the error says `outcomeUnknown`); resolves on `ok: true`.
 * It names its order (`confirm_params`) and leaves the page's flow state alone: it needs no lock.
 */
export async function confirm(context: CallContext, args: ConfirmArgs): Promise<'confirmed' | 'not_requested'> {
  const { confirmMethod, confirmParams, boc, account } = args;
  if (confirmMethod === undefined) return 'not_requested';
  if (!METHOD_NAME.test(confirmMethod)) throw new TypeError('confirmMethod is not a Fragment method name');
  validateAccount(account);
  if (!boc) throw new TypeError('boc is required');
  const reserved = new Set(['method', 'boc', 'account', 'device']);
  const params: FormFields = {};
  for (const [name, value] of Object.entries(confirmParams)) {
    if (reserved.has(name)) throw new TypeError(`confirmParams may not set ${name}`);
    params[name] = String(value);
  }
  const json = await context.api.call(
    args.product ?? context.api.lastProduct,
    confirmMethod,
    { ...params, boc, account: { ...account }, device: { ...(args.device ?? context.device) } },
    'write',
  );
  raiseBusinessError(json, confirmMethod);
  if (json.ok !== true) {
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${confirmMethod}: answer has neither ok nor error`, {
      method: confirmMethod,
    });
  }
  return 'confirmed';
}
