/**
 * The driver's HTTP calls to the gateway, each counted under a kind with its status and latency.
 * An error is what a client could not use: no answer, a 5xx, or a status the call did not expect.
 */
export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface MinuteCalls {
  /** Requests by kind. */
  byKind: Map<string, number>;
  /** Latencies of every answered request, ms. */
  latencies: number[];
  /** 4xx answers the driver expects now and then (e.g. 429 on a lookup budget), by kind and code. */
  refusals: Map<string, number>;
  errors: number;
}

const emptyMinute = (): MinuteCalls => ({ byKind: new Map(), latencies: [], refusals: new Map(), errors: 0 });

export class GatewayClient {
  private minute = emptyMinute();
  totalRequests = 0;
  totalErrors = 0;
  /** The first errors, verbatim, for the report. */
  readonly errorSamples: string[] = [];

  constructor(
    private readonly baseUrl: string,
    /** The operator listener's URL: where `admin` calls go. */
    private readonly adminBaseUrl: string,
    private readonly adminToken: string,
  ) {}

  takeMinute(): MinuteCalls {
    const minute = this.minute;
    this.minute = emptyMinute();
    return minute;
  }

  recordError(kind: string, message: string): void {
    this.minute.errors += 1;
    this.totalErrors += 1;
    if (this.errorSamples.length < 20) this.errorSamples.push(`${new Date().toISOString()} ${kind}: ${message}`);
  }

  /**
   * `expected`: statuses that are a normal answer; `tolerated`: 4xx answers counted as refusals
   * (by their error code), not errors. Anything else is an error and answers null.
   */
  async call<T = Record<string, unknown>>(
    kind: string,
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; admin?: boolean; expected?: number[]; tolerated?: number[] } = {},
  ): Promise<CallResult<T> | null> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.admin) {
      headers['authorization'] = `Bearer ${this.adminToken}`;
      headers['starsgate-operator'] = 'soak';
    }
    this.minute.byKind.set(kind, (this.minute.byKind.get(kind) ?? 0) + 1);
    this.totalRequests += 1;
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${options.admin ? this.adminBaseUrl : this.baseUrl}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
      text = await response.text();
    } catch (error) {
      this.recordError(kind, `${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    this.minute.latencies.push(performance.now() - started);
    const body = (
      text.length > 0 && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}
    ) as T;
    const expected = options.expected ?? [200];
    if (expected.includes(response.status)) return { status: response.status, body, headers: response.headers };
    if (options.tolerated?.includes(response.status)) {
      const given = (body as { code?: unknown }).code;
      const code = typeof given === 'string' ? given : String(response.status);
      const key = `${kind} ${code}`;
      this.minute.refusals.set(key, (this.minute.refusals.get(key) ?? 0) + 1);
      return { status: response.status, body, headers: response.headers };
    }
    this.recordError(kind, `${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return null;
  }
}
