// @ton/ton expects Node's Buffer; the browser gets the `buffer` package's.
import './buffer-global';
import { CheckoutView } from './checkout-view';
import { GatewayApi, type Checkout } from './gateway-api';
import { OrderForm } from './order-form';
import { SandboxWallet } from './sandbox-wallet';

const TERMINAL = new Set(['completed', 'failed', 'expired', 'reconciliation_required']);
const POLL_MS = 500;

const gatewayUrl = new URLSearchParams(location.search).get('gateway') ?? 'http://localhost:8080';
const api = new GatewayApi(gatewayUrl.replace(/\/$/, ''));
const form = document.querySelector<HTMLFormElement>('#order-form')!;
const createButton = document.querySelector<HTMLButtonElement>('#create')!;
const problem = document.querySelector<HTMLElement>('#problem')!;

function report(error: unknown): void {
  problem.textContent = error instanceof Error ? error.message : String(error);
  problem.hidden = false;
}

/** Polls the checkout until it ends, keeping the card and the countdown current. */
async function follow(view: CheckoutView, id: string, onUpdate: (checkout: Checkout) => void): Promise<void> {
  for (;;) {
    const checkout = await api.checkout(id);
    view.show(checkout);
    view.countdown(checkout);
    onUpdate(checkout);
    if (TERMINAL.has(checkout.status)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function start(): Promise<void> {
  const catalog = await api.products();
  const order = new OrderForm(form, catalog);
  const wallet = await SandboxWallet.load(location.origin);
  document.querySelector('#wallet-address')!.textContent = wallet.address.toString({ bounceable: false });
  createButton.disabled = false;

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    problem.hidden = true;
    createButton.disabled = true;
    const view = new CheckoutView(document.querySelector<HTMLElement>('#checkout')!, catalog);
    let latest: Checkout | undefined;
    view.payButton.addEventListener('click', () => {
      if (!latest?.transaction) return;
      view.payButton.disabled = true;
      const { transaction, checkout_id: id } = latest;
      void (async () => {
        const boc = await wallet.sign(transaction);
        // A TON Connect wallet broadcasts by itself; the shop then reports the BOC.
        await wallet.broadcast(boc);
        await api.submit(id, boc);
      })().catch(report);
    });
    // As a TON Connect wallet proves itself on connecting: over a payload the gateway issued, for this page's domain.
    void api
      .tonProofPayload()
      .then((payload) =>
        api.createCheckout(
          order.order({
            payer_address: wallet.address.toString(),
            ton_proof: wallet.tonProof(payload, location.hostname),
          }),
        ),
      )
      .then(({ checkout_id: id }) => follow(view, id, (checkout) => (latest = checkout)))
      .catch(report)
      .finally(() => (createButton.disabled = false));
  });
}

void start().catch(report);
