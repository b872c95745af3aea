import { ALLOW_INSECURE_HTTP_ENV, refuseInsecureTransport } from './transport-security';

/** An error answer of the operator API (its standard error body), or a transport failure. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
    readonly details: Array<{ field?: string; message?: string }> = [],
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** The gateway's operator listener (ADMIN_PORT) as `npm start` runs it. */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

/** The operator API over HTTP: `STARSGATE_URL` and `STARSGATE_ADMIN_TOKEN`. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    /** Sent as `Starsgate-Operator`: the name the audit trail records for changes. */
    readonly operator: string | undefined,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env, operator?: string, allowInsecureHttp = false): AdminClient {
    const token = env.STARSGATE_ADMIN_TOKEN;
    if (!token) throw new AdminApiError(null, 'CONFIGURATION', 'STARSGATE_ADMIN_TOKEN is not set');
    const baseUrl = env.STARSGATE_URL ?? DEFAULT_ADMIN_URL;
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new AdminApiError(null, 'CONFIGURATION', `STARSGATE_URL is not a URL: ${baseUrl}`);
    }
    refuseInsecureTransport(parsed, allowInsecureHttp || env[ALLOW_INSECURE_HTTP_ENV] === '1');
    return new AdminClient(baseUrl, token, operator ?? env.STARSGATE_OPERATOR ?? env.USER);
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers: {
          Authorization: `Bearer ${this.token}`,
          ...(this.operator ? { 'Starsgate-Operator': this.operator } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new AdminApiError(null, 'UNREACHABLE', `${this.baseUrl} cannot be reached: ${(error as Error).message}`);
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new AdminApiError(response.status, 'BAD_RESPONSE', `HTTP ${response.status}: not JSON`);
    }
    if (!response.ok) {
      const error = (parsed ?? {}) as { code?: string; message?: string; details?: AdminApiError['details'] };
      throw new AdminApiError(
        response.status,
        error.code ?? `HTTP_${response.status}`,
        error.message ?? `HTTP ${response.status}`,
        error.details ?? [],
      );
    }
    return parsed as T;
  }
}

/** A query string from the options that are set. */
export function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}
