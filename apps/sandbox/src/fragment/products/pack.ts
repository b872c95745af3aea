import type { FragmentSimulatorConfig } from '../config';
import type { RecipientEntry } from '../directory';
import type { MethodHandler, SimulatorContext } from '../methods/context';
import type { Order, PaymentMethodName } from '../orders';
import type { PageContext } from '../pages';
import type { Quote } from '../pricing';
import type { SimProduct } from './registry';

export type { SimProduct };

/** Fragment's receiving wallets, by the product page whose payments they take (docs/fragment-protocol.md §14.2). */
export const RECEIVER_NAMES = ['stars', 'premium'] as const;
export type ReceiverName = (typeof RECEIVER_NAMES)[number];

/** What an order is for, as the pack read it from an init: its `quantity` (the pack's unit) and, for a pack that has them, `months`. */
export interface OrderItems {
  quantity: number;
  months?: number;
}

/** A page the product serves (its purchase page, its history page). */
export interface ProductPage {
  kind: string;
  path: string;
  title: string;
  /** The page object of Fragment's script (`StarsBuy.init(…)`). */
  script: string;
  /** The home page's link to it, when it has one. */
  homeLink?: string;
  /** A history page lists the product's table; a product page shows `form` and the flow's state. */
  history: boolean;
  form?: (ctx: PageContext) => string;
}

/** How the product's deliveries read in an account's purchase history (history-html.ts). */
export interface ProductHistory {
  /** The product whose table lists its rows (a pack may share another's table). */
  table: SimProduct;
  /** A table's `type` on its page and in "load more" calls (history-types.ts); only a table's owner names it. */
  type?: string;
  /** A table owner's `<th>` cells. */
  headerHtml?: string;
  quantityText(order: Pick<Order, 'quantity' | 'months'>): string;
  /** The unit after the quantity in the `changed` markup's cards. */
  cardUnit: string;
  /** A row that is not Recipient | quantity | Price | Date (the top-up's). */
  rowHtml?: (order: Order, dateHtml: string) => string;
}

/** One simulated Fragment product: its pages, methods and the knowledge the shared flow asks it for. */
export interface SimProductPack {
  product: SimProduct;
  /** As the verification popup names it. */
  title: string;
  pages: ProductPage[];
  /** The Fragment API methods of this product (api-router.ts merges every pack's). */
  methods: Record<string, MethodHandler>;
  /** The receiving address its payments go to. */
  receiver: ReceiverName;
  /** The payment methods its init accepts; `fixedPaymentMethod` when its init names none. */
  paymentMethods: readonly PaymentMethodName[];
  fixedPaymentMethod?: PaymentMethodName;
  /** The error text for a recipient this product cannot go to (`entry` undefined: no such account), or undefined. */
  recipientError(
    entry: RecipientEntry | undefined,
    stage: 'search' | 'init',
    cfg: FragmentSimulatorConfig,
  ): string | undefined;
  /** An init's quantity fields, checked: the items or the error text. */
  readItems(body: Record<string, string>, cfg: FragmentSimulatorConfig): OrderItems | { error: string };
  quote(sim: SimulatorContext, items: OrderItems, rateMicro: bigint): Quote;
  /** The payment's comment text (docs/fragment-protocol.md §6.1). */
  comment(items: OrderItems, ref: string): string;
  /** "50 Telegram Stars": the order as init's answer and the status screens name it. */
  orderTitle(items: OrderItems): string;
  repeatButton: string;
  /** `options_html` of its state call (`body` the call's fields). */
  optionsHtml(sim: SimulatorContext, body: Record<string, string>): string;
  /** Its state call carries the account's history table (`history_html`). */
  stateHistory?: boolean;
  history: ProductHistory;
  /** The demo accounts that exercise this product's own answers (directory.ts). */
  demoRecipients?: RecipientEntry[];
}
