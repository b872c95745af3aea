import type { Checkout, ProductCatalog } from './gateway-api';

/**
 * How the page names an order, from the catalogue alone: `<value> <title>` where the title names
 * the one quantity, else `<title>: <value> <quantity> × …` (`…: 10 winners × 3 months`).
 */
export function orderLabel(catalog: ProductCatalog, checkout: Checkout): string {
  const product = catalog.products.find((entry) => entry.product === checkout.product);
  const title = product?.title ?? checkout.product;
  // In the catalogue's order of the product's fields (`quantities` comes in whatever order JSON keeps).
  const rank = (quantity: string) => product?.fields.findIndex((field) => field.quantity === quantity) ?? -1;
  const quantities = Object.entries(checkout.quantities ?? { amount: checkout.amount }).sort(
    ([a], [b]) => rank(a) - rank(b),
  );
  const [only] = quantities;
  if (quantities.length === 1 && only && title.toLowerCase().includes(only[0].toLowerCase()))
    return `${only[1]} ${title}`;
  return `${title}: ${quantities.map(([quantity, value]) => `${value} ${quantity}`).join(' × ')}`;
}

/** Fills the checkout card from its template (index.html) and keeps it current. */
export class CheckoutView {
  private readonly fields = new Map<string, HTMLElement>();
  readonly payButton: HTMLButtonElement;

  constructor(
    container: HTMLElement,
    private readonly catalog: ProductCatalog,
  ) {
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
    this.set('order', orderLabel(this.catalog, checkout));
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
