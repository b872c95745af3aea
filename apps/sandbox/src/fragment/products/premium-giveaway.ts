import { FragmentErrors } from '../errors';
import { fail, type MethodHandler } from '../methods/context';
import { initFor } from '../methods/init';
import { linkFor } from '../methods/link';
import { searchFor } from '../methods/search';
import { dataHash, parseCount, repeatFor, stateFor, sync } from '../methods/state';
import { TON_CONNECT_METHODS } from '../orders';
import { paymentMethodRadios } from '../page-parts';
import type { PageContext } from '../pages';
import { PREMIUM_MONTHS, type PremiumMonths } from '@starsgate/domain';
import type { OrderItems, SimProductPack } from './pack';
import { offeredMonths, periodText, premiumOptionsHtml } from './premium';
import { premiumUsdMicro } from './premium-config';

/**
 * Premium for a channel's subscribers (protocol reference "Evidence, 2026-11-28"): winners 1 to
 * 24,000, months 3, 6 or 12, paid in GRAM or USDT. A winner's months cost what a Premium gift of
 * those months does (no public evidence of a giveaway's own price), and each subscription given
 * away boosts the channel 4 times, as Telegram's giveaways do.
 */
const WINNERS_MAX = 24_000;
const BOOSTS_PER_WINNER = 4;

function winners(value: string | undefined): number | undefined {
  const n = parseCount(value);
  return n && n >= 1 && n <= WINNERS_MAX ? n : undefined;
}

/** The months radios priced for `quantity` winners (the place of the price in `options_html` is an assumption). */
function optionsFor(
  prices: PageContext['prices'],
  quantity: number,
  months: readonly PremiumMonths[] = PREMIUM_MONTHS,
): string {
  return premiumOptionsHtml(prices, months, quantity);
}

function form(ctx: PageContext): string {
  return `<section class="tm-section tm-main-premium-giveaway"><h2 class="tm-section-header">Telegram Premium Giveaway</h2><form class="js-giveaway-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter channel username" autocomplete="off"></div><div class="tm-form-field"><input type="number" class="form-control js-giveaway-quantity" name="quantity" min="1" max="${WINNERS_MAX}" value="1" placeholder="Enter number of winners from 1 to ${WINNERS_MAX.toLocaleString('en-US')}"></div><div class="tm-form-radio-items js-premium-giveaway-options">${optionsFor(ctx.prices, 1, offeredMonths(ctx))}</div>${paymentMethodRadios(ctx)}<button type="submit" class="btn btn-primary btn-block js-giveaway-btn">Give Away Premium</button></form></section>`;
}

function buttonLabel(quantity: number): string {
  return `Give Away ${quantity.toLocaleString('en-US')} Premium Subscription${quantity === 1 ? '' : 's'}`;
}

/** `updatePremiumGiveawayPrices {quantity}`: the months options priced for that many winners, and the boosts. */
const updatePremiumGiveawayPrices: MethodHandler = (call) => {
  const { sim, session, body } = call;
  const quantity = winners(body['quantity']);
  if (quantity === undefined) return fail(FragmentErrors.invalidWinners(WINNERS_MAX));
  const rate = sync(call, 'premium_giveaway');
  return {
    boosts: quantity * BOOSTS_PER_WINNER,
    button_label: buttonLabel(quantity),
    options_html: optionsFor(sim.prices, quantity),
    dh: dataHash(session, 'premium_giveaway', rate),
  };
};

function monthsOf(items: OrderItems): number {
  if (items.months === undefined) throw new Error('a giveaway without months');
  return items.months;
}

export const premiumGiveawayPack: SimProductPack = {
  product: 'premium_giveaway',
  title: 'Telegram Premium',
  pages: [
    {
      kind: 'premiumGiveaway',
      path: '/premium/giveaway',
      title: 'Telegram Premium Giveaway',
      script: 'PremiumGiveaway',
      history: false,
      form,
    },
  ],
  methods: {
    searchPremiumGiveawayRecipient: (call) => searchFor(call, premiumGiveawayPack),
    updatePremiumGiveawayState: (call) => stateFor(call, premiumGiveawayPack),
    updatePremiumGiveawayPrices,
    initGiveawayPremiumRequest: (call) => initFor(call, premiumGiveawayPack),
    getGiveawayPremiumLink: (call) => linkFor(call, premiumGiveawayPack),
    repeatPremiumGiveaway: (call) => repeatFor(call, 'premium_giveaway'),
  },
  receiver: 'premium',
  paymentMethods: TON_CONNECT_METHODS,
  recipientError: (entry) => (entry?.kind === 'channel' ? undefined : FragmentErrors.notAChannel),
  readItems(body) {
    const quantity = winners(body['quantity']);
    if (quantity === undefined) return fail(FragmentErrors.invalidWinners(WINNERS_MAX));
    const months = parseCount(body['months']);
    if (!months || !PREMIUM_MONTHS.includes(months as PremiumMonths)) return fail(FragmentErrors.invalidMonths);
    return { quantity, months };
  },
  quote: (sim, items, rate) =>
    sim.prices.quote(premiumUsdMicro(sim.config(), monthsOf(items) as PremiumMonths) * BigInt(items.quantity), rate),
  // "Prepaid Subscription … Ref#…" is all the evidence shows; the words between are the simulator's.
  comment: (items, ref) => `Prepaid Subscription for ${items.quantity} × ${monthsOf(items)} months\n\nRef#${ref}`,
  orderTitle: (items) =>
    `${items.quantity.toLocaleString('en-US')} Telegram Premium subscription${items.quantity === 1 ? '' : 's'} for ${periodText(monthsOf(items))}`,
  repeatButton: 'Start Another Giveaway',
  optionsHtml: (sim, body) => optionsFor(sim.prices, winners(body['quantity']) ?? 1),
  demoRecipients: [
    {
      username: 'starsgate_channel',
      name: 'Starsgate Channel',
      kind: 'channel',
      description: 'A channel for Premium giveaways; users and bots get "No Telegram channels found".',
    },
    {
      username: 'starsgate_giveaways',
      name: 'Starsgate Giveaways & Co',
      kind: 'channel',
      description: 'A channel whose name needs HTML escaping (&), for Premium giveaways.',
    },
  ],
  history: {
    // No evidence shows a giveaway's history row: the simulator lists it in Premium's table.
    table: 'premium',
    quantityText: (order) => `${order.quantity.toLocaleString('en-US')} × ${order.months ?? 0} months`,
    cardUnit: 'Premium',
  },
};
