import type { Address, Cell } from '@ton/core';
import type { FragmentSimulatorConfig, MsRange } from './config';
import type { Quote } from './pricing';
import type { SeededRandom } from './random';
import type { Product } from './sessions';

export const TON_CONNECT_METHODS = ['ton', 'usdt_ton'] as const;
export const EVM_METHODS = ['usdt_eth', 'usdt_pol', 'usdc_eth', 'usdc_base', 'usdc_pol'] as const;
export type TonPaymentMethod = (typeof TON_CONNECT_METHODS)[number];
export type PaymentMethodName = TonPaymentMethod | (typeof EVM_METHODS)[number];

/**
 * `pending`: initialised / link issued, waiting for payment (+ confirm).
 * `paid`: matching payment and confirm seen, waiting for `processing`.
 * `processing` → `done` (delivered). `failed`: right Ref but wrong amount or payload (shows `processing` + error screen).
 * `expired`: nothing paid by `validUntil`.
 */
export type OrderStatus = 'pending' | 'paid' | 'processing' | 'done' | 'failed' | 'expired';

export interface OrderMessage {
  /** Where the message goes (receiver for GRAM, payer's jetton wallet for USDT). */
  address: Address;
  /** `UQ…` (GRAM, non-bounceable) or `EQ…` (jetton wallet, bounceable). */
  addressText: string;
  amount: bigint;
  payload: Cell;
  payloadText: string;
}

export interface Order {
  reqId: string;
  ref: string;
  ssid: string;
  /** The Telegram login (`stel_token`) that created it: history is per account, not per session. */
  account: string;
  product: Product;
  username: string;
  /** What the order is for, in its pack's unit (products/*.ts, `readItems`). */
  quantity: number;
  /** A giveaway: the months each winner gets. */
  months?: number;
  paymentMethod: PaymentMethodName;
  quote: Quote;
  /** The `amount` string returned by init (TON or USDT). */
  amountText: string;
  comment: string;
  commentCell: Cell;
  /** The product's (allow-listed) receiving address: where the money must arrive. */
  receiver: Address;
  /** Query id of the USDT transfer (fixed per order). */
  queryId: bigint;
  createdAt: number;
  /** Chain seconds; pending orders expire after it. */
  expiresAt: number;
  validUntil?: number;
  /** The wallet `get…Link` named as `transaction.from`. */
  from?: Address;
  /**
   * `linked` mode: Fragment expects the payment from any wallet (matched by `Ref#`), so a confirm
   * may carry another wallet's external; `echo`: only `from`'s.
   */
  anyPayer?: boolean;
  message?: OrderMessage;
  payment?: { txHash: string; at: number };
  badPayment?: { txHash: string; reason: string; at: number };
  extraPayments: Array<{ txHash: string; reason: string }>;
  confirm?: { at: number; externalHash: string };
  /** `get…Link` named no confirm method: delivery does not wait for a confirm. */
  confirmNotRequested?: boolean;
  status: OrderStatus;
  /** When the status changed last (ms, simulator clock). */
  statusAt: number;
  failReason?: string;
}

export interface DeliveredOrder {
  ref: string;
  product: Product;
  username: string;
  quantity: number;
  months?: number;
  paymentMethod: TonPaymentMethod;
  txHash: string;
  /** When Fragment delivered it (simulator clock, ms). */
  at: number;
}

/** Orders and their state machine (docs/fragment-protocol.md §14.3). */
export class OrderBook {
  private readonly byReqId = new Map<string, Order>();
  private readonly byRef = new Map<string, Order>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly delivered: DeliveredOrder[] = [];
  private readonly deliveredOrders: Order[] = [];
  /** Listeners told about every status change (tests, logging). */
  private readonly listeners = new Set<(order: Order) => void>();
  /** Grows with every change worth saving (order-persistence.ts): a save is due when it moved. */
  changes = 0;

  constructor(
    private readonly config: () => FragmentSimulatorConfig,
    private readonly clock: () => number,
    private readonly chainNow: () => number,
    private readonly random: SeededRandom,
  ) {}

  newRef(): string {
    for (;;) {
      const ref = this.random.alnum(9);
      if (!this.byRef.has(ref)) return ref;
    }
  }

  newReqId(): string {
    for (;;) {
      const id = this.random.base64url(18, 'req-id'); // 24 chars
      if (!this.byReqId.has(id)) return id;
    }
  }

  add(order: Order): void {
    this.byReqId.set(order.reqId, order);
    this.byRef.set(order.ref, order);
    this.changes += 1;
  }

  /** An order's fields changed outside the book (a link answer): a save is due. */
  changed(): void {
    this.changes += 1;
  }

  /** What a restarted simulator needs: every order, and the delivered ones in delivery order. */
  persisted(): { orders: Order[]; deliveredRefs: string[]; delivered: DeliveredOrder[] } {
    return {
      orders: this.all(),
      deliveredRefs: this.deliveredOrders.map((order) => order.ref),
      delivered: this.delivered.map((entry) => ({ ...entry })),
    };
  }

  /**
   * Takes back a saved world: the orders, the history in its order, and deliveries under way (an
   * order paid but not yet delivered when the simulator stopped is delivered after the usual delays).
   */
  restore(saved: { orders: Order[]; deliveredRefs: string[]; delivered: DeliveredOrder[] }): void {
    for (const order of saved.orders) {
      order.extraPayments ??= [];
      this.byReqId.set(order.reqId, order);
      this.byRef.set(order.ref, order);
    }
    for (const ref of saved.deliveredRefs) {
      const order = this.byRef.get(ref);
      if (order) this.deliveredOrders.push(order);
    }
    this.delivered.push(...saved.delivered);
    for (const order of saved.orders) {
      if (order.status !== 'paid' && order.status !== 'processing') continue;
      if (order.badPayment && !order.payment) {
        this.after(this.config().doneDelay, () => this.setStatus(order, 'failed'));
      } else if (this.config().faults.done !== 'never') {
        this.after(this.config().doneDelay, () => this.deliver(order));
      }
    }
  }

  get(reqId: string | undefined): Order | undefined {
    if (!reqId) return undefined;
    const order = this.byReqId.get(reqId);
    if (order) this.checkExpiry(order);
    return order;
  }

  /** By Ref code. The payment watcher passes `checkExpiry: false` and judges expiry by the transaction's own time. */
  getByRef(ref: string, checkExpiry = true): Order | undefined {
    const order = this.byRef.get(ref);
    if (order && checkExpiry) this.checkExpiry(order);
    return order;
  }

  all(): Order[] {
    return [...this.byReqId.values()];
  }

  onChange(listener: (order: Order) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Pending orders with nothing paid expire after `expiresAt` (chain time). */
  checkExpiry(order: Order): void {
    if (order.status === 'pending' && !order.payment && !order.badPayment && this.chainNow() > order.expiresAt) {
      this.setStatus(order, 'expired');
    }
  }

  /** A payment that matched amount, destination and exact payload. */
  recordPayment(order: Order, txHash: string): void {
    if (order.payment || order.status === 'done' || order.status === 'expired') {
      order.extraPayments.push({ txHash, reason: 'duplicate payment' });
      return;
    }
    order.payment = { txHash, at: this.clock() };
    this.changes += 1;
    this.advance(order);
  }

  /** A payment carrying this order's Ref but a wrong amount or payload: never delivered. */
  recordBadPayment(order: Order, txHash: string, reason: string): void {
    if (order.badPayment || order.payment) {
      order.extraPayments.push({ txHash, reason });
      return;
    }
    order.badPayment = { txHash, reason, at: this.clock() };
    if (order.status !== 'pending') return;
    order.failReason = reason;
    this.setStatus(order, 'paid');
    this.after(this.config().processingDelay, () => {
      this.setStatus(order, 'processing');
      this.after(this.config().doneDelay, () => this.setStatus(order, 'failed'));
    });
  }

  recordConfirm(order: Order, externalHash: string): void {
    if (!order.confirm) order.confirm = { at: this.clock(), externalHash };
    this.changes += 1;
    this.advance(order);
  }

  /** Starts delivery once paid (and confirmed, when required). Delivers at most once. */
  private advance(order: Order): void {
    if (order.status !== 'pending' || !order.payment) return;
    if (this.config().requireConfirm && !order.confirm && !order.confirmNotRequested) return;
    this.setStatus(order, 'paid');
    this.after(this.config().processingDelay, () => {
      this.setStatus(order, 'processing');
      const faults = this.config().faults;
      if (faults.done === 'never') return;
      const delay: MsRange =
        faults.done === 'slow'
          ? { minMs: this.config().slowDoneDelayMs, maxMs: this.config().slowDoneDelayMs }
          : this.config().doneDelay;
      this.after(delay, () => this.deliver(order));
    });
  }

  private deliver(order: Order): void {
    if (order.status === 'done' || !order.payment) return;
    if (order.paymentMethod !== 'ton' && order.paymentMethod !== 'usdt_ton') return;
    this.delivered.push({
      ref: order.ref,
      product: order.product,
      username: order.username,
      quantity: order.quantity,
      ...(order.months !== undefined ? { months: order.months } : {}),
      paymentMethod: order.paymentMethod,
      txHash: order.payment.txHash,
      at: this.clock(),
    });
    this.setStatus(order, 'done');
    this.deliveredOrders.push(order);
  }

  /**
   * One page of the account's delivered orders of one history table's products, newest first (oldest first when
   * `ascending`): `limit` rows after the row whose sequence number is `offsetId`, and the offset of
   * the next page when there are more.
   */
  deliveredPage(
    account: string,
    products: readonly Product[],
    options: { limit: number; offsetId?: number; ascending?: boolean },
  ): { orders: Array<Order & { historyId: number }>; nextOffset?: number } {
    const listed = this.deliveredOrders
      .map((order, index) => ({ ...order, historyId: index + 1 }))
      .filter((o) => o.account === account && products.includes(o.product));
    if (!options.ascending) listed.reverse();
    const start =
      options.offsetId === undefined
        ? 0
        : listed.findIndex((o) => o.historyId === options.offsetId) + 1 || listed.length;
    const orders = listed.slice(start, start + options.limit);
    const more = start + options.limit < listed.length;
    return { orders, ...(more ? { nextOffset: orders[orders.length - 1]!.historyId } : {}) };
  }

  private setStatus(order: Order, status: OrderStatus): void {
    order.status = status;
    order.statusAt = this.clock();
    this.changes += 1;
    for (const listener of this.listeners) listener(order);
  }

  private after(range: MsRange, fn: () => void): void {
    const ms = this.random.int(range.minMs, range.maxMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref?.();
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.listeners.clear();
  }
}
