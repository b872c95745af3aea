/**
 * A purchase's calls to Fragment, by the product's pack (docs/fragment-protocol.md §5): the
 * recipient search, `init…Request`, `get…Link` and `confirm`. Locking is the client's
 * (client.ts): search and init run where it says; link and confirm name their order and take no lock.
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
import type { ClientContext } from './context';
import { updateState } from './flow-sync';
import { updatePrices } from './price-calls';

export interface InitRequestArgs {
  product: FragmentProduct;
  recipient: string;
  /** A one-quantity product's amount, or the order line's quantities by name. */
  amount: number | Quantities;
  paymentMethod: FragmentPaymentMethod;
}

export interface GetTransactionArgs {
  product: FragmentProduct;
  reqId: string;
  account: TonConnectAccount;
  device?: TonConnectDevice;
  showSender?: boolean;
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

/** `search…Recipient` for `quantities`: @username (or `t.me/…`) → the recipient token. */
export async function searchRecipient(
  ctx: ClientContext,
  product: FragmentProduct,
  username: string,
  quantities: Quantities,
): Promise<RecipientInfo> {
  const routes = fragmentPack(product);
  const query = username.trim().replace(/^@/, '');
  if (query === '') throw new TypeError('username is required');
  const fields = routes.searchSendsQuantities ? { query, ...routes.orderFields(quantities) } : { query };
  if (routes.newStateBeforeSearch)
    raiseBusinessError(
      await ctx.api.read(product, routes.updateState, { mode: 'new' }, ctx.lease.guard),
      routes.updateState,
    );
  const json = await ctx.api.read(product, routes.search, fields);
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

/**
 * `init…Request` after syncing state (and the price read, for a pack whose price read is
 * `beforeInit`); the caller holds the flow mutex. On "Price was changed" re-syncs and retries
 * (≤ priceChangedRetries).
 */
export async function initRequest(
  ctx: ClientContext,
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
  const flow = ctx.flows[product];
  flow.recipient = recipient;
  flow.quantities = quantities;
  for (let attempt = 0; ; attempt++) {
    // Every flow starts anew (docs/fragment-protocol.md §20.1): `mode: "new"`, never the
    // `done` of the session's previous order, and always synced, since another replica may
    // have moved the page's state since this process last saw it.
    flow.mode = 'new';
    await updateState(ctx, product);
    const prices = routes.prices;
    if (prices.kind === 'update_prices' && prices.beforeInit) await updatePrices(ctx, product, quantities);
    const json = await ctx.api.call(
      product,
      routes.init,
      {
        recipient,
        ...routes.orderFields(quantities),
        ...(routes.initSendsPaymentMethod ? { payment_method: paymentMethod } : {}),
      },
      'write',
      ctx.lease.guard,
    );
    try {
      raiseBusinessError(json, routes.init);
    } catch (error) {
      if (error instanceof FragmentError && error.kind === 'PRICE_CHANGED' && attempt < ctx.priceChangedRetries) {
        ctx.logger.info(
          `fragment ${routes.init}: price changed, re-syncing (${attempt + 1}/${ctx.priceChangedRetries})`,
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
        `Fragment ${routes.init}: invoice of ${answer.amount} GRAM for an order priced at its face value, ${amount} GRAM`,
        { method: routes.init },
      );
    return answer;
  }
}

/** `get…Link` with `transaction=1`: the TonConnect request to sign, and how to confirm it. */
export async function getTransaction(ctx: ClientContext, args: GetTransactionArgs): Promise<FragmentTransaction> {
  const { product, reqId, account } = args;
  validateAccount(account);
  if (!reqId) throw new TypeError('reqId is required');
  const method = fragmentPack(product).link;
  const json = await ctx.api.read(product, method, {
    id: reqId,
    show_sender: args.showSender ?? false,
    transaction: true,
    account: { ...account },
    device: { ...(args.device ?? ctx.device) },
  });
  raiseBusinessError(json, method);
  if (asBoolean(json.evm)) {
    throw new FragmentError('PAYMENT_METHOD_UNAVAILABLE', `Fragment ${method}: order is for an EVM payment method`, {
      method,
    });
  }
  return parseTransaction(json, method);
}

/** POSTs `confirm_method` with its params, the signed BOC, account and device (§8.1); resolves on `ok: true`. */
export async function confirm(ctx: ClientContext, args: ConfirmArgs): Promise<'confirmed' | 'not_requested'> {
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
  const json = await ctx.api.call(
    args.product ?? ctx.api.lastProduct,
    confirmMethod,
    { ...params, boc, account: { ...account }, device: { ...(args.device ?? ctx.device) } },
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
