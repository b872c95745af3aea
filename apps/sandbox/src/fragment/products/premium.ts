import { FragmentErrors } from '../errors';
import { historyLoadMore } from '../methods/history';
import { initFor } from '../methods/init';
import { linkFor } from '../methods/link';
import { searchFor } from '../methods/search';
import { parseCount, repeatFor, stateFor } from '../methods/state';
import { fail } from '../methods/context';
import { EVM_METHODS, TON_CONNECT_METHODS } from '../orders';
import { paymentMethodRadios, tonValueHtml } from '../page-parts';
import type { PageContext } from '../pages';
import { PREMIUM_MONTHS, type PremiumMonths } from '@starsgate/domain';
import { formatUsd, type PriceBook } from '../pricing';
import type { SimProductPack } from './pack';
import { PREMIUM_DRIFT, PremiumErrors, premiumUsdMicro } from './premium-config';

/** "3 months", "1 year": a Premium period as Fragment words it. */
export function periodText(months: number): string {
  return months === 12 ? '1 year' : `${months} months`;
}

function premiumDiscount(prices: PriceBook, months: PremiumMonths): number {
  // 100 - round(100 × monthly(m) / monthly(3)), integer math.
  const base = premiumUsdMicro(prices.config(), 3) * BigInt(months);
  const scaled = premiumUsdMicro(prices.config(), months) * 3n * 200n;
  const ratio = (scaled / base + 1n) / 2n;
  return 100 - Number(ratio);
}

/** The months radios with their prices, for `quantity` subscriptions (1 for a gift; a giveaway's winners). */
export function premiumOptionsHtml(
  prices: PriceBook,
  months: readonly PremiumMonths[] = PREMIUM_MONTHS,
  quantity = 1,
): string {
  const rate = prices.tonRateMicro();
  return months
    .map((m) => {
      const q = prices.quote(premiumUsdMicro(prices.config(), m) * BigInt(quantity), rate);
      const discount = m === 3 ? 0 : premiumDiscount(prices, m);
      const badge = discount > 0 ? `<span class="tm-radio-label-badge">-${discount}%</span>` : '';
      return `<label class="tm-form-radio-item"><input type="radio" class="tm-form-radio" name="months" value="${m}"${m === 3 ? ' checked' : ''}><div class="tm-form-radio-label"><div class="tm-radio-label">${periodText(m)}${badge}</div>${tonValueHtml(q.tonText)}<div class="tm-radio-desc">$${formatUsd(q.usdMicro)}</div></div></label>`;
    })
    .join('');
}

/** The months the page offers (the `premiumMonths` drift drops a year). */
export function offeredMonths(ctx: PageContext): readonly PremiumMonths[] {
  return ctx.drift.has(PREMIUM_DRIFT) ? [3, 6] : PREMIUM_MONTHS;
}

function form(ctx: PageContext): string {
  return `<section class="tm-section tm-main-premium-gift"><h2 class="tm-section-header">Gift Telegram Premium</h2><form class="js-premium-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-radio-items js-premium-options">${premiumOptionsHtml(ctx.prices, offeredMonths(ctx))}</div>${paymentMethodRadios(ctx)}<button type="submit" class="btn btn-primary btn-block js-premium-gift-btn">Gift Premium</button></form></section>`;
}

export const premiumPack: SimProductPack = {
  product: 'premium',
  title: 'Telegram Premium',
  pages: [
    {
      kind: 'premium',
      path: '/premium/gift',
      homeLink: 'Gift Premium',
      title: 'Gift Telegram Premium',
      script: 'PremiumGift',
      history: false,
      form,
    },
    {
      kind: 'premiumHistory',
      path: '/premium/history',
      title: 'Telegram Premium History',
      script: 'PremiumHistory',
      history: true,
    },
  ],
  methods: {
    searchPremiumGiftRecipient: (call) => searchFor(call, premiumPack),
    updatePremiumState: (call) => stateFor(call, premiumPack),
    initGiftPremiumRequest: (call) => initFor(call, premiumPack),
    getGiftPremiumLink: (call) => linkFor(call, premiumPack),
    repeatPremium: (call) => repeatFor(call, 'premium'),
    getPremiumHistory: historyLoadMore('premium'),
  },
  receiver: 'premium',
  paymentMethods: [...TON_CONNECT_METHODS, ...EVM_METHODS],
  recipientError(entry, stage, cfg) {
    if (!entry) return FragmentErrors.notFound;
    if (entry.kind !== 'user') return FragmentErrors.notAUser;
    const at = cfg.faults.premiumActiveAt;
    return entry.hasPremium && (at === stage || at === 'both') ? PremiumErrors.active : undefined;
  },
  readItems(body) {
    const m = parseCount(body['months']);
    if (!m || !PREMIUM_MONTHS.includes(m as PremiumMonths)) return fail(FragmentErrors.invalidMonths);
    return { quantity: m };
  },
  quote: (sim, items, rate) => sim.prices.quote(premiumUsdMicro(sim.config(), items.quantity as PremiumMonths), rate),
  comment: (items, ref) => `Telegram Premium for ${periodText(items.quantity)} \n\nRef#${ref}`,
  orderTitle: (items) => `Telegram Premium for ${periodText(items.quantity)}`,
  repeatButton: 'Gift More Premium',
  optionsHtml: (sim) => premiumOptionsHtml(sim.prices),
  stateHistory: true,
  demoRecipients: [
    {
      username: 'premium_pat',
      name: 'Pat Premium',
      kind: 'user',
      hasPremium: true,
      description: 'Already has Premium: Premium search/init fail with "already subscribed"; Stars succeed.',
    },
  ],
  history: {
    table: 'premium',
    // The Premium page names no `type`: its script sends an empty one (history-types.ts).
    type: '',
    headerHtml: '<th>Recipient</th><th>Duration</th><th>Price</th><th class="wide-last-col">Date</th>',
    quantityText: (order) => periodText(order.quantity),
    cardUnit: 'Premium',
  },
};
