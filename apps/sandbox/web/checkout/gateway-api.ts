/** The starsgate checkout API as this page uses it (the shapes of the OpenAPI document). */
export interface TonConnectTransaction {
  validUntil: number;
  network: '-239' | '-3';
  from: string;
  messages: Array<{ address: string; amount: string; payload?: string; stateInit?: string }>;
}

export interface Checkout {
  checkout_id: string;
  status: string;
  product: string;
  username: string;
  amount: number;
  payment_method: string;
  valid_until?: string;
  prices?: { gram?: string; usdt?: string };
  transaction?: TonConnectTransaction;
  transaction_hash?: string;
  error?: { code: string; message: string; action?: string };
}

/** TON Connect's `ton_proof` reply, as the checkout's `ton_proof` carries it. */
export interface TonProof {
  timestamp: number;
  domain: { lengthBytes: number; value: string };
  payload: string;
  signature: string;
}

export interface OrderInput {
  product: string;
  username: string;
  amount: number;
  payment_method: string;
  payer_address: string;
  ton_proof: TonProof;
}

/** A gateway error body, thrown as an Error whose message carries the code and the action. */
async function parse<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T & { code?: string; message?: string; action?: string };
  if (!response.ok)
    throw new Error(`${body.code ?? response.status}: ${body.message ?? ''} ${body.action ?? ''}`.trim());
  return body;
}

export class GatewayApi {
  constructor(private readonly baseUrl: string) {}

  /** A payload the wallet signs as its ton_proof when it connects. */
  async tonProofPayload(): Promise<string> {
    const response = await fetch(`${this.baseUrl}/api/v1/checkouts/ton-proof-payload`, { method: 'POST' });
    return (await parse<{ payload: string }>(response)).payload;
  }

  async createCheckout(order: OrderInput): Promise<{ checkout_id: string }> {
    const response = await fetch(`${this.baseUrl}/api/v1/checkouts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...order, idempotency_key: crypto.randomUUID() }),
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
