import { historyRowsHtml } from '../history-html';
import type { Product } from '../sessions';
import { FragmentErrors } from '../errors';
import { fail, type CallContext, type MethodHandler } from './context';

/** `get…History` with `offset_id`: the next page of the account's history (docs/fragment-protocol.md §5.3). */
function moreHistory(call: CallContext, product: Product): Record<string, unknown> {
  const { sim, auth, body, cookies } = call;
  if (!auth.loggedIn) return fail(FragmentErrors.accessDenied);
  const offsetId = Number(body['offset_id']);
  if (!Number.isSafeInteger(offsetId) || offsetId < 1) return fail(FragmentErrors.badRequest);
  const cfg = sim.config();
  const page = sim.orders.deliveredPage(cookies['stel_token'] ?? '', product, {
    limit: cfg.historyPageRows,
    offsetId,
  });
  return {
    ok: true,
    html: historyRowsHtml(page.orders, cfg.faults.historyMarkup),
    ...(page.nextOffset !== undefined ? { next_offset: String(page.nextOffset) } : {}),
  };
}

export const getStarsHistory: MethodHandler = (call) => moreHistory(call, 'stars');
export const getPremiumHistory: MethodHandler = (call) => moreHistory(call, 'premium');
