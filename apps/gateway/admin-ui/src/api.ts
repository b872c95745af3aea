/** The admin API as the page calls it: same origin, the session cookie, the CSRF token on every change. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSessionLost: () => void = () => undefined;

export function useCsrfToken(token: string): void {
  csrfToken = token;
}

export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const payload = (await response.json().catch(() => ({}))) as {
    code?: string;
    message?: string;
    details?: unknown[];
  };
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/admin/session')) onSessionLost();
    throw new ApiError(
      response.status,
      payload.code ?? 'HTTP_ERROR',
      payload.message ?? `HTTP ${response.status}`,
      payload.details ?? [],
    );
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string): Promise<T> => call<T>('GET', path),
  post: <T>(path: string, body?: unknown): Promise<T> => call<T>('POST', path, body ?? {}),
};

export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
