import { historyFootHtml, historyRowsHtml, historyStyle, tableProducts } from '../history-html';
import { historyProductOfType } from '../history-types';
import type { Product } from '../sessions';
import { FragmentErrors } from '../errors';
import { fail, type CallContext, type MethodHandler } from './context';

/**
 * Older rows of the account's history after the row `offset_id` (docs/fragment-protocol.md §17.2).
 * As Fragment's page script loads them: one product's `get…History {type, offset_id}` serves every
 * table, `type` naming it (history-types.ts), answered with the rows to append (`body`) and the
 * table's new foot (`foot`, holding `data-next-offset` while older rows remain). The `legacy` fault
 * answers as this simulator did before the 2026-11-26 evidence: each table owner's own method,
 * `{html, next_offset}`.
 */
function moreHistory(call: CallContext, table: Product | undefined): Record<string, unknown> {
  const { sim, auth, body, cookies } = call;
  if (!auth.loggedIn) return fail(FragmentErrors.accessDenied);
  const cfg = sim.config();
  const legacy = cfg.faults.historyLoadMore === 'legacy';
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

/** The "load more" method Fragment's script calls for every table (`type` names it); in the `legacy` fault, `owner`'s table alone. */
export function historyLoadMore(owner: Product): MethodHandler {
  return (call) =>
    moreHistory(
      call,
      call.sim.config().faults.historyLoadMore === 'legacy' ? owner : historyProductOfType(call.body['type'] ?? ''),
    );
}

/** A table owner's own "load more" method, only in the `legacy` fault: no public source names one. */
export function legacyHistoryLoadMore(owner: Product): MethodHandler {
  return (call) =>
    call.sim.config().faults.historyLoadMore === 'legacy'
      ? moreHistory(call, owner)
      : fail(FragmentErrors.unknownMethod);
}
