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
  /** API method for older history rows (`offset_id`), docs/fragment-protocol.md §5.3. */
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
    historyMore: 'getStarsHistory',
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
