import { FragmentErrors } from '../errors';
import { escapeHtml } from '../html';
import { initFor } from '../methods/init';
import { linkFor } from '../methods/link';
import { searchFor } from '../methods/search';
import { parseCount, stateFor } from '../methods/state';
import { closeTopupState, openTopupState, topupStateOpen } from '../methods/topup-state-gate';
import { fail } from '../methods/context';
import type { Order } from '../orders';
import type { SimProductPack } from './pack';

/** No public evidence of Fragment's top-up maximum; clients cap at 999,999 or 1,000,000,000 (§18). */
const TOPUP_MAX = 1_000_000_000;

function form(): string {
  return `<section class="tm-section tm-main-ads-topup"><h2 class="tm-section-header">Top Up Telegram Account</h2><form class="js-topup-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-field"><input type="number" class="form-control js-amount-input" name="amount" min="1" placeholder="Enter amount in TON"></div><button type="submit" class="btn btn-primary btn-block js-topup-btn">Top Up</button></form></section>`;
}

/**
 * A top-up row (`/ads/history?type=topup`, protocol reference "…2026-11-26", one client's parser):
 * the recipient as a t.me link, the whole GRAM in an `.icon-ton` cell, the date; no price column.
 */
function topupRowHtml(order: Order, dateHtml: string): string {
  const handle = escapeHtml(order.username);
  return `<tr class="tm-row-selectable"><td><div class="table-cell"><a href="https://t.me/${handle}" class="table-cell-value tm-value tm-inline-nowrap">@${handle}</a></div></td><td><div class="table-cell"><div class="table-cell-value tm-value icon-before icon-ton">${escapeHtml(order.quantity.toLocaleString('en-US'))}</div></div></td><td class="wide-last-col"><div class="table-cell"><div class="table-cell-value tm-value tm-nowrap">${dateHtml}</div></div></td></tr>`;
}

export const gramPack: SimProductPack = {
  product: 'gram',
  title: 'GRAM top-up',
  pages: [
    { kind: 'topup', path: '/ads/topup', title: 'Top Up Telegram Account', script: 'AdsTopup', history: false, form },
    { kind: 'topupHistory', path: '/ads/history', title: 'Top-up History', script: 'AdsHistory', history: true },
  ],
  methods: {
    /** The top-up's search takes the query alone; channels, bots and unknown names all get "not a user" (§18). */
    searchAdsTopupRecipient: (call) => {
      if (call.sim.config().faults.topupSearchNeedsState && !topupStateOpen(call.session))
        return fail(FragmentErrors.badRequest);
      return searchFor(call, gramPack);
    },
    updateAdsTopupState: (call) => {
      if (call.body['mode'] === 'new') openTopupState(call.session);
      return stateFor(call, gramPack);
    },
    initAdsTopupRequest: (call) => {
      closeTopupState(call.session);
      return initFor(call, gramPack);
    },
    getAdsTopupLink: (call) => linkFor(call, gramPack),
  },
  // No evidence names a top-up wallet (§18): the sandbox's top-ups go to the Stars wallet.
  receiver: 'stars',
  paymentMethods: ['ton'],
  // The top-up's init names no payment method: it is paid in GRAM (docs/fragment-protocol.md §18).
  fixedPaymentMethod: 'ton',
  recipientError(entry, stage) {
    if (!entry) return stage === 'search' ? FragmentErrors.notAUser : FragmentErrors.notFound;
    return entry.kind !== 'user' ? FragmentErrors.notAUser : undefined;
  },
  readItems(body) {
    const n = parseCount(body['amount']);
    if (!n || n < 1 || n > TOPUP_MAX) return fail(FragmentErrors.invalidAmount);
    return { quantity: n };
  },
  quote: (sim, items, rate) => sim.prices.faceValueQuote(items.quantity, rate),
  // The top-up's comment names no amount (docs/fragment-protocol.md §18, pyfragment's vector).
  comment: (_items, ref) => `Telegram account top up \n\nRef#${ref}`,
  // Not captured: the amount with its coin.
  orderTitle: (items) => `${items.quantity.toLocaleString('en-US')} TON`,
  repeatButton: 'Top Up More',
  optionsHtml: () => '',
  history: {
    table: 'gram',
    type: 'topup',
    headerHtml: '<th>Recipient</th><th>Amount</th><th class="wide-last-col">Date</th>',
    quantityText: (order) => order.quantity.toLocaleString('en-US'),
    cardUnit: 'TON',
    rowHtml: topupRowHtml,
  },
};
