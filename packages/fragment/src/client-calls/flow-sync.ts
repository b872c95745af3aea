/** The page's flow state: `update…State` and the session's status screen (docs/fragment-protocol.md §12). */
import { raiseBusinessError } from '../business-errors';
import { adoptMode, echoFlowState } from '../flow-state';
import { htmlToText } from '../html-parsing';
import { asBoolean } from '../json-values';
import { fragmentPack } from '../products';
import type { FragmentProduct, OrderState } from '../types';
import type { ClientContext } from './context';

/** What `pollOrderState` answers: the flow state and the status screen's visible text. */
export interface PolledOrderState {
  mode: string;
  done: boolean;
  needUpdate: boolean;
  statusText: string;
}

/** `update…State` echoing `mode`/`lv`/`dh`; the caller holds the flow mutex. */
export async function updateState(ctx: ClientContext, product: FragmentProduct): Promise<OrderState> {
  const method = fragmentPack(product).updateState;
  const flow = ctx.flows[product];
  const json = await ctx.api.read(product, method, { mode: flow.mode, lv: flow.lv, dh: flow.dh }, ctx.lease.guard);
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

/** The session's flow state, `done` only when Fragment needs no further update. */
export async function pollState(ctx: ClientContext, product: FragmentProduct): Promise<PolledOrderState> {
  const state = await updateState(ctx, product);
  return {
    mode: state.mode,
    needUpdate: state.needUpdate,
    done: state.mode === 'done' && !state.needUpdate,
    statusText: state.statusText,
  };
}
