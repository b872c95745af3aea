import { FragmentErrors } from '../errors';
import { legacyHistoryLoadMore } from '../methods/history';
import { initFor } from '../methods/init';
import { linkFor } from '../methods/link';
import { searchFor } from '../methods/search';
import { dataHash, parseCount, repeatFor, stateFor, sync } from '../methods/state';
import { fail, type MethodHandler } from '../methods/context';
import { EVM_METHODS, TON_CONNECT_METHODS } from '../orders';
import { curPriceHtml, paymentMethodRadios, tonValueHtml } from '../page-parts';
import type { PageContext } from '../pages';
import { formatUsd, type PriceBook } from '../pricing';
import type { SimProductPack } from './pack';
import { STARS_DRIFT, StarsErrors, starsUsdMicro } from './stars-config';

/** Stars packages listed on /stars/buy (input[name="stars"]). */
export const STARS_PACKAGES = [
  50, 75, 100, 150, 250, 350, 500, 750, 1000, 1500, 2500, 5000, 10000, 25000, 50000, 100000, 150000, 500000, 1000000,
];

export function starsOptionsHtml(prices: PriceBook, starsMax: number): string {
  const rate = prices.tonRateMicro();
  return STARS_PACKAGES.filter((n) => n <= starsMax)
    .map((n) => {
      const q = prices.quote(starsUsdMicro(prices.config(), n), rate);
      return `<label class="tm-form-radio-item"><input type="radio" class="tm-form-radio" name="stars" value="${n}"${n === 50 ? ' checked' : ''}><div class="tm-form-radio-label"><div class="tm-radio-label">${n.toLocaleString('en-US')} Stars</div>${tonValueHtml(q.tonText)}<div class="tm-radio-desc">$${formatUsd(q.usdMicro)}</div></div></label>`;
    })
    .join('');
}

/** "Enter amount from 50 to 1,000,000": the Stars limits as Fragment's placeholder words them. */
function starsPlaceholder(ctx: PageContext): string {
  const [min, max] = ctx.drift.has(STARS_DRIFT) ? [100, 25_000] : [ctx.cfg.starsMin, ctx.cfg.starsMax];
  return `Enter amount from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

function form(ctx: PageContext): string {
  return `<section class="tm-section tm-main-stars-buy"><h2 class="tm-section-header">Buy Telegram Stars</h2><form class="js-stars-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-field"><input type="number" class="form-control js-stars-quantity" name="quantity" min="${ctx.cfg.starsMin}" max="${ctx.cfg.starsMax}" placeholder="${starsPlaceholder(ctx)}"></div><div class="tm-form-radio-items js-stars-options">${starsOptionsHtml(ctx.prices, ctx.cfg.starsMax)}</div>${paymentMethodRadios(ctx)}<button type="submit" class="btn btn-primary btn-block js-stars-buy-btn">Buy Stars</button></form></section>`;
}

/** `updateStarsPrices {quantity}` (docs/fragment-protocol.md §5.2): the price of a typed-in amount. */
const updateStarsPrices: MethodHandler = (call) => {
  const { sim, session, body } = call;
  const cfg = sim.config();
  const quantity = parseCount(body['quantity']) || parseCount(body['stars']);
  if (!quantity || quantity < cfg.starsMin || quantity > cfg.starsMax)
    return fail(StarsErrors.invalidQuantity(cfg.starsMin, cfg.starsMax));
  const rate = sync(call, 'stars');
  const q = sim.prices.quote(starsUsdMicro(cfg, quantity), rate);
  return {
    ok: true,
    cur_price: curPriceHtml(q.tonText, q.usdMicro),
    options_html: starsOptionsHtml(sim.prices, cfg.starsMax),
    dh: dataHash(session, 'stars', rate),
  };
};

export const starsPack: SimProductPack = {
  product: 'stars',
  title: 'Telegram Stars',
  pages: [
    {
      kind: 'stars',
      path: '/stars/buy',
      title: 'Buy Telegram Stars',
      homeLink: 'Buy Stars',
      script: 'StarsBuy',
      history: false,
      form,
    },
    {
      kind: 'starsHistory',
      path: '/stars/history',
      title: 'Telegram Stars History',
      script: 'StarsHistory',
      history: true,
    },
  ],
  methods: {
    searchStarsRecipient: (call) => searchFor(call, starsPack),
    updateStarsBuyState: (call) => stateFor(call, starsPack),
    updateStarsPrices,
    initBuyStarsRequest: (call) => initFor(call, starsPack),
    getBuyStarsLink: (call) => linkFor(call, starsPack),
    repeatStars: (call) => repeatFor(call, 'stars'),
    getStarsHistory: legacyHistoryLoadMore('stars'),
  },
  receiver: 'stars',
  paymentMethods: [...TON_CONNECT_METHODS, ...EVM_METHODS],
  recipientError(entry) {
    if (!entry) return FragmentErrors.notFound;
    if (entry.kind !== 'user') return FragmentErrors.notAUser;
    return entry.starsBlocked ? StarsErrors.blocked : undefined;
  },
  readItems(body, cfg) {
    const n = parseCount(body['quantity']);
    if (!n || n < cfg.starsMin || n > cfg.starsMax)
      return fail(StarsErrors.invalidQuantity(cfg.starsMin, cfg.starsMax));
    return { quantity: n };
  },
  quote: (sim, items, rate) => sim.prices.quote(starsUsdMicro(sim.config(), items.quantity), rate),
  comment: (items, ref) => `${items.quantity} Telegram Stars \n\nRef#${ref}`,
  orderTitle: (items) => `${items.quantity.toLocaleString('en-US')} Telegram Stars`,
  repeatButton: 'Buy More Stars',
  optionsHtml: (sim) => starsOptionsHtml(sim.prices, sim.config().starsMax),
  demoRecipients: [
    {
      username: 'frozen_fay',
      name: 'Fay Frost',
      kind: 'user',
      starsBlocked: true,
      description:
        'Cannot receive Stars now ("You can\'t gift Telegram Stars to this account at this moment."); Premium succeeds.',
    },
  ],
  history: {
    table: 'stars',
    type: 'stars',
    headerHtml: '<th>Recipient</th><th>Stars</th><th>Price</th><th class="wide-last-col">Date</th>',
    quantityText: (order) => order.quantity.toLocaleString('en-US'),
    cardUnit: '★',
  },
};
