import type { Address, Transaction } from '@ton/core';
import type { FragmentChainView } from './chain-view';
import { extractRef, readComment } from './comment-payload';
import { parseTransferNotification } from './jetton-payload';
import type { Order, OrderBook } from './orders';

export interface ObservedPayment {
  txHash: string;
  receiver: string;
  kind: 'ton' | 'usdt_ton';
  ref?: string;
  outcome: 'matched' | 'rejected' | 'ignored';
  reason?: string;
}

/**
 * Watches the chain for payments into the receiving addresses (docs/fragment-protocol.md §14.3).
 * GRAM: an internal message into the receiver with value == quote and body
 * hash == the comment cell hash. USDT: a `transfer_notification` into the
 * receiver from the receiver's own (legitimate) USDT jetton wallet with the
 * exact jetton amount and the comment cell as forward payload. A payment that
 * carries an order's Ref but a wrong amount/payload fails the order.
 */
export class PaymentWatcher {
  private unsubscribe: (() => void) | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly jettonWallets = new Map<string, Promise<Address>>();
  readonly observed: ObservedPayment[] = [];

  constructor(
    private readonly chain: FragmentChainView,
    private readonly orders: OrderBook,
    private readonly receivers: () => Address[],
  ) {}

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.chain.onBlock((transactions) => {
      for (const tx of transactions) {
        this.queue = this.queue.then(() => this.process(tx)).catch(() => undefined);
      }
    });
  }

  /** Resolves once every transaction delivered so far has been processed. */
  idle(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private jettonWalletOf(owner: Address): Promise<Address> {
    const key = owner.toRawString();
    let wallet = this.jettonWallets.get(key);
    if (!wallet) {
      wallet = this.chain.getJettonWalletAddress(owner);
      wallet.catch(() => this.jettonWallets.delete(key));
      this.jettonWallets.set(key, wallet);
    }
    return wallet;
  }

  private async process(tx: Transaction): Promise<void> {
    const msg = tx.inMessage;
    if (!msg || msg.info.type !== 'internal') return;
    const dest = msg.info.dest;
    const receiver = this.receivers().find((r) => r.equals(dest));
    if (!receiver) return;
    const txHash = tx.hash().toString('hex');
    const src = msg.info.src;
    const notification = parseTransferNotification(msg.body);
    if (notification) {
      const legit = await this.jettonWalletOf(receiver);
      if (!src.equals(legit)) {
        this.observed.push({
          txHash,
          receiver: receiver.toRawString(),
          kind: 'usdt_ton',
          outcome: 'ignored',
          reason: "notification not from the receiver's USDT jetton wallet",
        });
        return;
      }
      const text = readComment(notification.forwardPayload);
      const ref = text !== undefined ? extractRef(text) : undefined;
      const order = ref ? this.orders.getByRef(ref, false) : undefined;
      if (!order) {
        this.observed.push({
          txHash,
          receiver: receiver.toRawString(),
          kind: 'usdt_ton',
          ref,
          outcome: 'ignored',
          reason: 'no order with this Ref',
        });
        return;
      }
      const why =
        order.paymentMethod !== 'usdt_ton'
          ? `order expects ${order.paymentMethod}`
          : !order.receiver.equals(receiver)
            ? 'wrong receiving address'
            : notification.amount !== order.quote.usdtUnits
              ? `wrong jetton amount ${notification.amount} (expected ${order.quote.usdtUnits})`
              : !notification.forwardPayload.hash().equals(order.commentCell.hash())
                ? 'forward payload is not the exact comment cell'
                : undefined;
      this.settle(order, tx, txHash, 'usdt_ton', why);
      return;
    }
    // GRAM: the body is the comment itself. Funds of a bounced message never arrived.
    if (tx.description.type === 'generic' && tx.description.bouncePhase?.type === 'ok') return;
    const text = readComment(msg.body);
    const ref = text !== undefined ? extractRef(text) : undefined;
    const order = ref ? this.orders.getByRef(ref, false) : undefined;
    if (!order) {
      this.observed.push({
        txHash,
        receiver: receiver.toRawString(),
        kind: 'ton',
        ref,
        outcome: 'ignored',
        reason: 'no order with this Ref',
      });
      return;
    }
    const value = msg.info.value.coins;
    const why =
      order.paymentMethod !== 'ton'
        ? `order expects ${order.paymentMethod}`
        : !order.receiver.equals(receiver)
          ? 'wrong receiving address'
          : value !== order.quote.tonNano
            ? `wrong amount ${value} (expected ${order.quote.tonNano})`
            : !msg.body.hash().equals(order.commentCell.hash())
              ? 'payload is not the exact comment cell'
              : undefined;
    this.settle(order, tx, txHash, 'ton', why);
  }

  private settle(
    order: Order,
    tx: Transaction,
    txHash: string,
    kind: 'ton' | 'usdt_ton',
    why: string | undefined,
  ): void {
    const receiver = order.receiver.toRawString();
    if (why === undefined && order.status === 'pending' && !order.payment && tx.now > order.expiresAt)
      why = 'paid after validUntil';
    if (why === undefined) {
      this.orders.recordPayment(order, txHash);
      this.observed.push({ txHash, receiver, kind, ref: order.ref, outcome: 'matched' });
    } else {
      this.orders.recordBadPayment(order, txHash, why);
      this.observed.push({ txHash, receiver, kind, ref: order.ref, outcome: 'rejected', reason: why });
    }
  }
}
