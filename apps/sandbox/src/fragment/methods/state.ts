import { createHash } from 'node:crypto';
import { historyStyle, historyTableHtml, tableProducts } from '../history-html';
import type { Order } from '../orders';
import { flowHtml } from '../pages';
import type { SimProductPack } from '../products/pack';
import type { Product, Session } from '../sessions';
import type { CallContext, SimulatorContext } from './context';

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
export function sync(call: CallContext, product: Product): bigint {
  const rate = call.sim.prices.tonRateMicro();
  call.session.flows[product].syncedRateMicro = rate;
  return rate;
}

/** `update…State` of a product (docs/fragment-protocol.md §14.2): the page's flow state. */
export function stateFor(call: CallContext, pack: SimProductPack): Record<string, unknown> {
  const { sim, session } = call;
  const product = pack.product;
  // A sync in any other mode (a status poll) shows the page's current order: no flow starts.
  session.flowStart = call.body['mode'] === 'new' ? product : undefined;
  const rate = sync(call, product);
  const order = currentOrder(sim, session, product);
  const mode = modeOf(order);
  const cfg = sim.config();
  const options = pack.optionsHtml(sim, call.body);
  const form = `<div class="tm-form-radio-items js-${product}-options">${options}</div>`;
  const out: Record<string, unknown> = {
    mode,
    html: flowHtml(pack, order, form),
    options_html: options,
  };
  if (pack.stateHistory)
    out['history_html'] = historyTableHtml(
      pack.history.table,
      sim.orders.deliveredPage(call.cookies['stel_token'] ?? '', tableProducts(pack.history.table), {
        limit: cfg.historyPageRows,
      }),
      historyStyle(cfg.faults, sim.clock()),
    );
  const lv = session.flows[product].lv;
  out['lv'] = lv === 0 ? false : lv;
  out['dh'] = dataHash(session, product, rate);
  out['need_update'] = mode === 'processing';
  return out;
}

/** Parses a positive integer form value; undefined when absent/invalid. */
export function parseCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** `repeat…` (Fragment's page calls it to start over): the flow shows no order any more. */
export function repeatFor(call: CallContext, product: Product): Record<string, unknown> {
  const flow = call.session.flows[product];
  flow.currentReqId = undefined;
  flow.lv += 1;
  return { ok: true };
}
