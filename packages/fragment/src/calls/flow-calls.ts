import type { Quantities } from '@starsgate/domain';
import { raiseBusinessError } from '../business-errors';
import { adoptMode, echoFlowState } from '../flow-state';
import { htmlToText } from '../html-parsing';
import { asBoolean } from '../json-values';
import { fragmentPack, type PriceRead } from '../products';
import type { FragmentProduct, OrderState } from '../types';
import type { CallContext } from './call-context';

/** The session's flow state as a completion poll reads it: `done` only once no update is pending. */
export interface PolledOrderState {
  mode: string;
  done: boolean;
  needUpdate: boolean;
  statusText: string;
}

/** `update…State` echoing `mode`/`lv`/`dh` (step 2; also the completion poll). The caller holds the flow. */
export async function updateState(context: CallContext, product: FragmentProduct): Promise<OrderState> {
  const method = fragmentPack(product).updateState;
  const flow = context.flows[product];
  const json = await context.api.read(
    product,
    method,
    { mode: flow.mode, lv: flow.lv, dh: flow.dh },
    context.flowGuard(),
  );
  raiseBusinessError(json, method);
  // Fields absent from an answer are unchanged (the page keeps its state).
  adoptMode(flow, json.mode);
  echoFlowState(flow, json);
  return {
    mode: flow.mode,
    needUpdate: asBoolean(json.need_update),
    statusText: typeof json.html === 'string' ? htmlToText(json.html) : '',
  };
}

export async function pollState(context: CallContext, product: FragmentProduct): Promise<PolledOrderState> {
  const state = await updateState(context, product);
  return {
    mode: state.mode,
    needUpdate: state.needUpdate,
    done: state.mode === 'done' && !state.needUpdate,
    statusText: state.statusText,
  };
}

/** A product's `update_prices` call for `quantities`, its flow state echoed. The caller holds the flow. */
export async function updatePrices(
  context: CallContext,
  product: FragmentProduct,
  quantities: Quantities,
): Promise<Record<string, unknown>> {
  const prices = updatePricesRead(product);
  const flow = context.flows[product];
  const json = await context.api.read(
    product,
    prices.method,
    { ...prices.fields(quantities), dh: flow.dh },
    context.flowGuard(),
  );
  raiseBusinessError(json, prices.method);
  echoFlowState(flow, json);
  return json;
}

/** A product's `update_prices` read; throws for a product priced otherwise. */
export function updatePricesRead(product: FragmentProduct): Extract<PriceRead, { kind: 'update_prices' }> {
  const prices = fragmentPack(product).prices;
  if (prices.kind !== 'update_prices') throw new TypeError(`${product} is not priced by an update_prices call`);
  return prices;
}
