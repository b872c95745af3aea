import type { FragmentProduct } from './types';

/**
 * Fragment's completion state belongs to the cookie session's latest order, so a "done" page can
 * be another order's. Its success screen names what was sent and to whom ("50 Telegram Stars were
 * sent to @alice.", "Telegram Premium for 1 year were sent to @bob."); this checks that the text
 * names this order's recipient and quantity before its "done" is believed.
 */
export function statusTextNamesOrder(statusText: string, order: { product: FragmentProduct; username: string; amount: number }): boolean {
  const text = statusText.toLowerCase().replace(/(\d)[,\s\u00a0](?=\d{3}\b)/g, '$1');
  const handle = order.username.replace(/^@/, '').toLowerCase();
  if (!new RegExp(`@${handle}(?![a-z0-9_])`).test(text)) return false;
  if (order.product === 'stars') return new RegExp(`(?<![0-9])${order.amount} telegram stars`).test(text);
  const duration = order.amount === 12 ? '(?:1 year|12 months)' : `${order.amount} months`;
  return new RegExp(`telegram premium for ${duration}`).test(text);
}
