/** A `fetch` that answers from a script and records what it was sent (the SDK takes `fetch` as an option). */
export interface SentRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

export type Answer = Response | Error | ((request: SentRequest) => Response | Promise<Response>);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function scriptedFetch(answers: Answer[] | ((request: SentRequest) => Answer)) {
  const sent: SentRequest[] = [];
  const next = (request: SentRequest): Answer => {
    if (typeof answers === 'function') return answers(request);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${request.method} ${request.url.pathname}`);
    return answer;
  };
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const request: SentRequest = {
      method: init.method ?? 'GET',
      url: new URL(input instanceof URL ? input.href : typeof input === 'string' ? input : input.url),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
    };
    sent.push(request);
    const answer = next(request);
    if (answer instanceof Error) throw answer;
    const response = typeof answer === 'function' ? await answer(request) : answer;
    return response.clone();
  };
  return { fetch: fetchImpl, sent };
}

export const PURCHASE_ID = '5b3c3a52-6f0e-4c4e-9d1e-1f1f6c7b8a90';
export const CHECKOUT_ID = '0d4f7a5e-8b1c-4f8e-a3b9-5e2d1c9f7a61';
export const SEED = 'abandon ability able about above absent absorb abstract absurd abuse access accident';

export function errorBody(code: string, extra: Record<string, unknown> = {}) {
  return { code, message: `${code} message`, details: [], request_id: 'req-1', ...extra };
}

export function purchaseBody(status: string, extra: Record<string, unknown> = {}) {
  return {
    purchase_id: PURCHASE_ID,
    status,
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:01.000Z',
    ...extra,
  };
}
