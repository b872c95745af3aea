import type { Checkout } from './gateway-api';

/** How the page names an order (the browser bundle carries no copy of the domain's registry). */
const ORDER_LABELS: Readonly<Record<string, (amount: number) => string>> = {
  stars: (amount) => `${amount} Telegram Stars`,
  premium: (months) => `Telegram Premium, ${months} months`,
  gram: (amount) => `${amount} GRAM top-up`,
};

/** Fills the checkout card from its template (index.html) and keeps it current. */
export class CheckoutView {
  private readonly fields = new Map<string, HTMLElement>();
  readonly payButton: HTMLButtonElement;

  constructor(container: HTMLElement) {
    const template = document.querySelector<HTMLTemplateElement>('#checkout-template')!;
    container.replaceChildren(template.content.cloneNode(true));
    container.hidden = false;
    for (const element of container.querySelectorAll<HTMLElement>('[data-field]'))
      this.fields.set(element.dataset.field!, element);
    this.payButton = container.querySelector<HTMLButtonElement>('[data-action="pay"]')!;
  }

  private set(field: string, text: string): void {
    const element = this.fields.get(field);
    if (element) element.textContent = text;
  }

  show(checkout: Checkout): void {
    this.set('checkout_id', checkout.checkout_id);
    this.set('username', checkout.username);
    const label = ORDER_LABELS[checkout.product];
    this.set('order', label ? label(checkout.amount) : `${checkout.product} × ${checkout.amount}`);
    if (checkout.prices?.gram) this.set('price', `${checkout.prices.gram} GRAM`);
    if (checkout.prices?.usdt) this.set('price', `${checkout.prices.usdt} USDT`);
    const status = this.fields.get('status')!;
    status.textContent = checkout.error ? `${checkout.status} (${checkout.error.code})` : checkout.status;
    status.dataset.status = checkout.status;
    this.payButton.disabled = checkout.status !== 'awaiting_signature';
    if (checkout.status !== 'awaiting_signature' && checkout.status !== 'preparing') this.payButton.hidden = true;
  }

  /** Time left to sign, while the checkout waits for the signature. */
  countdown(checkout: Checkout, now = Date.now()): void {
    const validUntil = checkout.valid_until;
    if (!validUntil || checkout.status !== 'awaiting_signature') {
      this.set('countdown', '—');
      return;
    }
    const seconds = Math.max(0, Math.floor((new Date(validUntil).getTime() - now) / 1000));
    this.set('countdown', `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')} left`);
  }
}
