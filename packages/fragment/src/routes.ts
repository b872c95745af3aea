import type { FragmentProduct } from './types';

/** The pages and API methods of one product's flow (docs/fragment-protocol.md §2.1, §5). */
export interface ProductRoutes {
  page: string;
  search: string;
  amountField: 'quantity' | 'months';
  updateState: string;
  init: string;
  link: string;
  history: string;
  /**
   * API method for older history rows (`{type, offset_id}` → `{body, foot}`), docs/fragment-protocol.md
   * §17.2: Fragment's page script names `getPremiumHistory`; no public source names another, so the
   * Stars table is assumed to use it too.
   */
  historyMore: string;
}

export const ROUTES: Record<FragmentProduct, ProductRoutes> = {
  stars: {
    page: '/stars/buy',
    search: 'searchStarsRecipient',
    amountField: 'quantity',
    updateState: 'updateStarsBuyState',
    init: 'initBuyStarsRequest',
    link: 'getBuyStarsLink',
    history: '/stars/history?sort=desc',
    historyMore: 'getPremiumHistory',
  },
  premium: {
    page: '/premium/gift',
    search: 'searchPremiumGiftRecipient',
    amountField: 'months',
    updateState: 'updatePremiumState',
    init: 'initGiftPremiumRequest',
    link: 'getGiftPremiumLink',
    history: '/premium/history?sort=desc',
    historyMore: 'getPremiumHistory',
  },
};
