import { buildCommentCell, commentText } from '../comment-payload';
import { FragmentErrors } from '../errors';
import { groupThousands } from '../decimal';
import { escapeHtml } from '../html';
import { orderTitle } from '../pages';
import { EVM_METHODS, type Order, type PaymentMethodName, TON_CONNECT_METHODS } from '../orders';
import { PREMIUM_MONTHS, type PremiumMonths } from '../pricing';
import type { Product } from '../sessions';
import { type CallContext, fail, type MethodHandler } from './context';
import { resolveRecipient } from './search';
import { parseCount } from './state';
import { closeTopupState } from './topup-state-gate';

const METHODS: readonly string[] = [...TON_CONNECT_METHODS, ...EVM_METHODS];
/** No public evidence of Fragment's top-up maximum; clients cap at 999,999 or 1,000,000,000 (§18). */
const TOPUP_MAX = 1_000_000_000;

function init(call: CallContext, product: Product): Record<string, unknown> {
  const { sim, session, auth, body } = call;
  const cfg = sim.config();
  if (!auth.loggedIn) return fail(FragmentErrors.accessDenied);
  const startedAnew = session.flowStart === product;
  session.flowStart = undefined;
  if (cfg.faults.strictFlow && !startedAnew) {
    // docs/fragment-protocol.md §20.1: the page's one flow state is not this flow's.
    sim.sessions.strictFlowRejections += 1;
    session.flows[product].syncedRateMicro = undefined;
    return fail(FragmentErrors.priceChanged);
  }
  // The top-up's init names no payment method: it is paid in GRAM (docs/fragment-protocol.md §18).
  const method = product === 'gram' ? 'ton' : body['payment_method'];
  if (!method || !METHODS.includes(method)) return fail(FragmentErrors.accessDenied);
  const paymentMethod = method as PaymentMethodName;
  const tonConnect = paymentMethod === 'ton' || paymentMethod === 'usdt_ton';
  if (tonConnect && (!auth.walletConnected || cfg.faults.needTon)) return { need_ton: true };

  const entry = resolveRecipient(sim, session, body['recipient']);
  if (!entry) return fail(FragmentErrors.notFound);
  if (entry.kind !== 'user') return fail(FragmentErrors.notAUser);

  let quantity: number;
  let usdMicro: bigint;
  if (product === 'gram') {
    const n = parseCount(body['amount']);
    if (!n || n < 1 || n > TOPUP_MAX) return fail(FragmentErrors.invalidAmount);
    quantity = n;
    usdMicro = 0n;
  } else if (product === 'stars') {
    const n = parseCount(body['quantity']);
    if (!n || n < cfg.starsMin || n > cfg.starsMax)
      return fail(FragmentErrors.invalidQuantity(cfg.starsMin, cfg.starsMax));
    if (entry.starsBlocked) return fail(FragmentErrors.starsBlocked);
    quantity = n;
    usdMicro = sim.prices.starsUsdMicro(n);
  } else {
    const m = parseCount(body['months']);
    if (!m || !PREMIUM_MONTHS.includes(m as PremiumMonths)) return fail(FragmentErrors.invalidMonths);
    const at = cfg.faults.premiumActiveAt;
    if (entry.hasPremium && (at === 'init' || at === 'both')) return fail(FragmentErrors.premiumActive);
    quantity = m;
    usdMicro = sim.prices.premiumUsdMicro(m as PremiumMonths);
  }

  // Price state: init must follow a state sync at the current rate (docs/fragment-protocol.md §2.1, §14.2).
  const flow = session.flows[product];
  const rate = sim.prices.tonRateMicro();
  if (flow.syncedRateMicro === undefined || flow.syncedRateMicro !== rate) {
    flow.syncedRateMicro = undefined;
    return fail(FragmentErrors.priceChanged);
  }
  if (cfg.faults.priceChangedNextInits > 0) {
    cfg.faults.priceChangedNextInits -= 1;
    flow.syncedRateMicro = undefined;
    return fail(FragmentErrors.priceChanged);
  }

  const quote = product === 'gram' ? sim.prices.topupQuote(quantity, rate) : sim.prices.quote(usdMicro, rate);
  const ref = sim.orders.newRef();
  const comment = commentText(
    product === 'premium' ? { product, months: quantity as PremiumMonths } : { product, quantity },
    ref,
  );
  const chainNow = sim.chain.now();
  const order: Order = {
    reqId: sim.orders.newReqId(),
    ref,
    ssid: session.ssid,
    account: call.cookies['stel_token'] ?? '',
    product,
    username: entry.username,
    quantity,
    paymentMethod,
    quote,
    amountText: paymentMethod === 'ton' ? quote.tonText : quote.usdtText,
    comment,
    commentCell: buildCommentCell(comment),
    // No evidence names a top-up wallet (§18): the sandbox's top-ups go to the Stars wallet.
    receiver: product === 'premium' ? sim.receivers.premium : sim.receivers.stars,
    queryId: sim.random.uint64(),
    createdAt: sim.clock(),
    expiresAt: chainNow + cfg.validitySeconds,
    extraPayments: [],
    status: 'pending',
    statusAt: sim.clock(),
  };
  sim.orders.add(order);
  flow.currentReqId = order.reqId;
  flow.lv += 1;

  const title = orderTitle(order);
  const currency = paymentMethod === 'ton' ? 'icon-ton' : 'icon-usdt';
  // Written for people, as Fragment does: large amounts with thousands separators (`1,000.5`).
  const amount = groupThousands(order.amountText);
  return {
    req_id: order.reqId,
    myself: false,
    to_bot: false,
    amount,
    item_title: title,
    content: `<div class="tm-purchase-info"><div class="tm-purchase-title">${escapeHtml(title)}</div><div class="tm-purchase-recipient">to <span class="tm-inline-nowrap">@${escapeHtml(entry.username)}</span></div><div class="tm-value icon-before ${currency}">${amount}</div></div>`,
    button: `<button class="btn btn-primary btn-block js-buy-btn" data-req-id="${order.reqId}">Pay ${amount} ${paymentMethod === 'ton' ? 'TON' : 'USDT'}</button>`,
  };
}

export const initBuyStarsRequest: MethodHandler = (call) => init(call, 'stars');
export const initGiftPremiumRequest: MethodHandler = (call) => init(call, 'premium');
export const initAdsTopupRequest: MethodHandler = (call) => {
  closeTopupState(call.session);
  return init(call, 'gram');
};
