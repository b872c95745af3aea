import type { OrderInput, ProductCatalog, ProductInfo } from './gateway-api';

type Field = ProductInfo['fields'][number];

/**
 * The order form, built from the gateway's catalogue (`GET /api/v1/products`): one option per
 * product, and for the chosen product its own request fields (a range as a number input, choices
 * as a select), its payment methods and its recipient kind. The page knows no product by name.
 */
export class OrderForm {
  private readonly productSelect: HTMLSelectElement;
  private readonly quantityFields: HTMLElement;
  private readonly paymentSelect: HTMLSelectElement;
  private readonly username: HTMLInputElement;

  constructor(
    private readonly form: HTMLFormElement,
    private readonly catalog: ProductCatalog,
  ) {
    this.productSelect = form.querySelector<HTMLSelectElement>('select[name="product"]')!;
    this.quantityFields = form.querySelector<HTMLElement>('#quantity-fields')!;
    this.paymentSelect = form.querySelector<HTMLSelectElement>('select[name="payment_method"]')!;
    this.username = form.querySelector<HTMLInputElement>('input[name="username"]')!;
    this.productSelect.replaceChildren(
      ...catalog.products.map((product) => new Option(product.title, product.product)),
    );
    this.productSelect.addEventListener('change', () => this.showProduct());
    this.showProduct();
  }

  private get product(): ProductInfo {
    return this.catalog.products.find((product) => product.product === this.productSelect.value)!;
  }

  private showProduct(): void {
    const product = this.product;
    this.quantityFields.replaceChildren(...product.fields.map((field) => fieldInput(field)));
    const previous = this.paymentSelect.value;
    this.paymentSelect.replaceChildren(
      ...product.payment_methods.map((method) => new Option(method.toUpperCase(), method)),
    );
    if (product.payment_methods.some((method) => method === previous)) this.paymentSelect.value = previous;
    this.username.placeholder = product.recipient_kind === 'channel' ? '@channel' : '@username';
    this.form.dataset.recipientKind = product.recipient_kind;
  }

  /** The order as the checkout request carries it: its quantities under the field names the catalogue gives. */
  order(payer: Pick<OrderInput, 'payer_address' | 'ton_proof'>): OrderInput {
    const quantities = Object.fromEntries(
      this.product.fields.map((field) => [
        field.name,
        Number((this.form.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement).value),
      ]),
    );
    return {
      product: this.product.product,
      username: this.username.value,
      payment_method: this.paymentSelect.value as OrderInput['payment_method'],
      ...quantities,
      ...payer,
    };
  }
}

function fieldInput(field: Field): HTMLLabelElement {
  const label = document.createElement('label');
  label.append(`${field.quantity[0]!.toUpperCase()}${field.quantity.slice(1)} `);
  if (field.choices) {
    const select = document.createElement('select');
    select.name = field.name;
    select.append(...field.choices.map((choice) => new Option(String(choice), String(choice))));
    label.append(select);
    return label;
  }
  const input = document.createElement('input');
  input.name = field.name;
  input.type = 'number';
  input.required = true;
  if (field.minimum !== undefined) input.min = String(field.minimum);
  if (field.maximum !== undefined) input.max = String(field.maximum);
  input.value = String(field.minimum ?? 1);
  label.append(input);
  return label;
}
