import { buildCommentCell } from '../comment-payload';
import { FragmentErrors } from '../errors';
import { groupThousands } from '../decimal';
import { escapeHtml } from '../html';
import type { Order, PaymentMethodName } from '../orders';
import type { SimProductPack } from '../products/pack';
import { type CallContext, fail } from './context';
import { resolveRecipient } from './search';

/** `init…Request` of a product: checks the recipient and quantities, then opens the order. */
export function initFor(call: CallContext, pack: SimProductPack): Record<string, unknown> {
  const { sim, session, auth, body } = call;
  const product = pack.product;
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
  const method = pack.fixedPaymentMethod ?? body['payment_method'];
  if (!method || !(pack.paymentMethods as readonly string[]).includes(method)) return fail(FragmentErrors.accessDenied);
  const paymentMethod = method as PaymentMethodName;
  const tonConnect = paymentMethod === 'ton' || paymentMethod === 'usdt_ton';
  if (tonConnect && (!auth.walletConnected || cfg.faults.needTon)) return { need_ton: true };

  const entry = resolveRecipient(sim, session, body['recipient']);
  const refused = pack.recipientError(entry, 'init', cfg);
  if (refused !== undefined || !entry) return fail(refused ?? FragmentErrors.notFound);
  const items = pack.readItems(body, cfg);
  if ('error' in items) return items;

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

  const quote = pack.quote(sim, items, rate);
  const ref = sim.orders.newRef();
  const comment = pack.comment(items, ref);
  const chainNow = sim.chain.now();
  const order: Order = {
    reqId: sim.orders.newReqId(),
    ref,
    ssid: session.ssid,
    account: call.cookies['stel_token'] ?? '',
    product,
    username: entry.username,
    quantity: items.quantity,
    ...(items.months !== undefined ? { months: items.months } : {}),
    paymentMethod,
    quote,
    amountText: paymentMethod === 'ton' ? quote.tonText : quote.usdtText,
    comment,
    commentCell: buildCommentCell(comment),
    receiver: sim.receivers[pack.receiver],
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

  const title = pack.orderTitle(order);
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
