import { historyFootHtml, historyRowsHtml, historyStyle, tableProducts } from '../history-html';
import { historyProductOfType } from '../history-types';
import type { Product } from '../sessions';
import { FragmentErrors } from '../errors';
import { fail, type CallContext, type MethodHandler } from './context';

/**
 * Older rows of the account's history after the row `offset_id` (docs/fragment-protocol.md §17.2).
 * As Fragment's page script loads them: `getPremiumHistory {type, offset_id}`, `type` naming the
 * table (history-types.ts), answered with the rows to append (`body`) and the table's new foot
 * (`foot`, holding `data-next-offset` while older rows remain). The `legacy` fault answers as this
 * simulator did before the 2026-11-26 evidence: `getStarsHistory` for Stars, `{html, next_offset}`.
 */
function moreHistory(call: CallContext, product: Product | undefined): Record<string, unknown> {
  const { sim, auth, body, cookies } = call;
  if (!auth.loggedIn) return fail(FragmentErrors.accessDenied);
  const cfg = sim.config();
  const legacy = cfg.faults.historyLoadMore === 'legacy';
  const table = product ?? (legacy ? 'premium' : historyProductOfType(body['type'] ?? ''));
  if (table === undefined) return fail(FragmentErrors.badRequest);
  const offsetId = Number(body['offset_id']);
  if (!Number.isSafeInteger(offsetId) || offsetId < 1) return fail(FragmentErrors.badRequest);
  const page = sim.orders.deliveredPage(cookies['stel_token'] ?? '', tableProducts(table), {
    limit: cfg.historyPageRows,
    offsetId,
  });
  const rows = historyRowsHtml(page.orders, historyStyle(cfg.faults, sim.clock()));
  if (legacy)
    return {
      ok: true,
      html: rows,
      ...(page.nextOffset !== undefined ? { next_offset: String(page.nextOffset) } : {}),
    };
  return { ok: true, body: rows, foot: historyFootHtml(page.nextOffset) };
}

export const getPremiumHistory: MethodHandler = (call) => moreHistory(call, undefined);

/** Only in the `legacy` fault: no public source names this method. */
export const getStarsHistory: MethodHandler = (call) =>
  call.sim.config().faults.historyLoadMore === 'legacy'
    ? moreHistory(call, 'stars')
    : fail(FragmentErrors.unknownMethod);
