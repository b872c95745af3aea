/** The starsgate API as this page uses it; its types are the gateway's own, generated from /openapi.json. */
import type {
  Checkout,
  CheckoutAccepted,
  CreateCheckoutRequest,
  ProductCatalog,
  TonProofPayload,
} from './generated/openapi-types';

export type {
  Checkout,
  ProductCatalog,
  Product as ProductInfo,
  TonConnectTransaction,
} from './generated/openapi-types';

/** TON Connect's `ton_proof` reply, as the checkout's `ton_proof` carries it. */
export type TonProof = NonNullable<CreateCheckoutRequest['ton_proof']>;

/** A checkout request before its idempotency key. */
export type OrderInput = Omit<CreateCheckoutRequest, 'idempotency_key'>;

/** A gateway error body, thrown as an Error whose message carries the code and the action. */
async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T & { code?: string; message?: string; action?: string };
  if (!response.ok)
    throw new Error(`${body.code ?? response.status}: ${body.message ?? ''} ${body.action ?? ''}`.trim());
  return body;
}

export class GatewayApi {
  constructor(private readonly baseUrl: string) {}

  /** What the gateway sells: each product's fields and their limits, payment methods and recipient kind. */
  async products(): Promise<ProductCatalog> {
    return parse(await fetch(`${this.baseUrl}/api/v1/products`, { headers: { Accept: 'application/json' } }));
  }

  /** A payload the wallet signs as its ton_proof when it connects. */
  async tonProofPayload(): Promise<string> {
    const response = await fetch(`${this.baseUrl}/api/v1/checkouts/ton-proof-payload`, { method: 'POST' });
    return (await parse<TonProofPayload>(response)).payload;
  }

  async createCheckout(order: OrderInput): Promise<CheckoutAccepted> {
    const body: CreateCheckoutRequest = { ...order, idempotency_key: crypto.randomUUID() };
    const response = await fetch(`${this.baseUrl}/api/v1/checkouts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return parse(response);
  }

  async checkout(id: string): Promise<Checkout> {
    return parse(await fetch(`${this.baseUrl}/api/v1/checkouts/${id}`, { headers: { Accept: 'application/json' } }));
  }

  async submit(id: string, boc: string): Promise<Checkout> {
    const response = await fetch(`${this.baseUrl}/api/v1/checkouts/${id}/submitted`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ boc }),
    });
    return parse(response);
  }
}
