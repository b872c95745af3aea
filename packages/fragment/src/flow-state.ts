import type { Quantities } from '@starsgate/domain';
import { scalarText } from './json-values';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';
import type { FragmentProduct } from './types';

/** Page state echoed to update…State (docs/fragment-protocol.md §5.2): mode, lv (starts as the string `false`), dh. */
export interface FlowState {
  mode: string;
  lv: string;
  dh: string;
  /** The last recipient/amount, for a Referer like the browser's `<page>?recipient=…&<order fields>`. */
  recipient?: string;
  quantities?: Quantities;
}

export function newFlowStates(): Record<FragmentProduct, FlowState> {
  const now = String(Math.floor(Date.now() / 1000));
  const states = {} as Record<FragmentProduct, FlowState>;
  for (const product of FRAGMENT_PRODUCT_NAMES) states[product] = { mode: 'new', lv: 'false', dh: now };
  return states;
}

/** Adopts `lv`/`dh` of an answer (or a page's state); fields it lacks stay as they were. */
export function echoFlowState(flow: FlowState, json: Record<string, unknown>): void {
  const lv = scalarText(json.lv);
  if (lv !== undefined) flow.lv = lv;
  const dh = scalarText(json.dh);
  if (dh !== undefined && dh !== '') flow.dh = dh;
}

/** Adopts a new `mode` when the answer carries one. */
export function adoptMode(flow: FlowState, value: unknown): void {
  const mode = scalarText(value);
  if (mode !== undefined && mode !== '') flow.mode = mode;
}

/** The browser's Referer for a product's flow: its page, with the order's recipient and amount once known. */
export function flowReferer(product: FragmentProduct, flow: FlowState): string {
  const routes = fragmentPack(product);
  if (flow.recipient === undefined || flow.quantities === undefined) return routes.page;
  const query = new URLSearchParams({ recipient: flow.recipient, ...routes.orderFields(flow.quantities) });
  return `${routes.page}?${query.toString()}`;
}
