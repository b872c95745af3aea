import { createHash } from 'node:crypto';
import { FragmentErrors } from '../errors';
import type { Order } from '../orders';
import { historyStyle, historyTableHtml } from '../history-html';
import { curPriceHtml, flowHtml, premiumOptionsHtml, starsOptionsHtml } from '../pages';
import type { Product, Session } from '../sessions';
import { type CallContext, fail, type MethodHandler, type SimulatorContext } from './context';
import { openTopupState } from './topup-state-gate';

/** The `mode` the page shows for the flow's current order. */
export function modeOf(order: Order | undefined): 'new' | 'processing' | 'done' {
  if (!order) return 'new';
  switch (order.status) {
    case 'paid':
    case 'processing':
    case 'failed':
      return 'processing';
    case 'done':
      return 'done';
    default:
      return 'new';
  }
}

/** 10-digit data hash of what the page shows (`dh`). */
export function dataHash(session: Session, product: Product, rateMicro: bigint): string {
  const flow = session.flows[product];
  const digest = createHash('sha256')
    .update(`${session.ssid}:${product}:${flow.lv}:${flow.currentReqId ?? ''}:${rateMicro}`)
    .digest();
  return String(1_000_000_000 + (digest.readUInt32BE(0) % 900_000_000));
}

export function currentOrder(sim: SimulatorContext, session: Session, product: Product): Order | undefined {
  const reqId = session.flows[product].currentReqId;
  return reqId ? sim.orders.get(reqId) : undefined;
}

/** Marks the product's price state as synced at the current rate (what init checks). */
function sync(call: CallContext, product: Product): bigint {
  const rate = call.sim.prices.tonRateMicro();
  call.session.flows[product].syncedRateMicro = rate;
  return rate;
}

function stateResponse(call: CallContext, product: Product): Record<string, unknown> {
  const { sim, session } = call;
  // A sync in any other mode (a status poll) shows the page's current order: no flow starts.
  session.flowStart = call.body['mode'] === 'new' ? product : undefined;
  const rate = sync(call, product);
  const order = currentOrder(sim, session, product);
  const mode = modeOf(order);
  const cfg = sim.config();
  const options =
    product === 'stars'
      ? starsOptionsHtml(sim.prices, cfg.starsMax)
      : product === 'premium'
        ? premiumOptionsHtml(sim.prices)
        : '';
  const form = `<div class="tm-form-radio-items js-${product}-options">${options}</div>`;
  const out: Record<string, unknown> = {
    mode,
    html: flowHtml(product, order, form),
    options_html: options,
  };
  if (product === 'premium')
    out['history_html'] = historyTableHtml(
      'premium',
      sim.orders.deliveredPage(call.cookies['stel_token'] ?? '', 'premium', { limit: cfg.historyPageRows }),
      historyStyle(cfg.faults, sim.clock()),
    );
  const lv = session.flows[product].lv;
  out['lv'] = lv === 0 ? false : lv;
  out['dh'] = dataHash(session, product, rate);
  out['need_update'] = mode === 'processing';
  return out;
}

export const updateStarsBuyState: MethodHandler = (call) => stateResponse(call, 'stars');
export const updatePremiumState: MethodHandler = (call) => stateResponse(call, 'premium');
export const updateAdsTopupState: MethodHandler = (call) => {
  if (call.body['mode'] === 'new') openTopupState(call.session);
  return stateResponse(call, 'gram');
};

/** Parses a positive integer form value; undefined when absent/invalid. */
export function parseCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

export const updateStarsPrices: MethodHandler = (call) => {
  const { sim, session, body } = call;
  const cfg = sim.config();
  const quantity = parseCount(body['quantity']) || parseCount(body['stars']);
  if (!quantity || quantity < cfg.starsMin || quantity > cfg.starsMax)
    return fail(FragmentErrors.invalidQuantity(cfg.starsMin, cfg.starsMax));
  const rate = sync(call, 'stars');
  const q = sim.prices.quote(sim.prices.starsUsdMicro(quantity), rate);
  return {
    ok: true,
    cur_price: curPriceHtml(q.tonText, q.usdMicro),
    options_html: starsOptionsHtml(sim.prices, cfg.starsMax),
    dh: dataHash(session, 'stars', rate),
  };
};

function repeat(call: CallContext, product: Product): Record<string, unknown> {
  const flow = call.session.flows[product];
  flow.currentReqId = undefined;
  flow.lv += 1;
  return { ok: true };
}

export const repeatStars: MethodHandler = (call) => repeat(call, 'stars');
export const repeatPremium: MethodHandler = (call) => repeat(call, 'premium');
