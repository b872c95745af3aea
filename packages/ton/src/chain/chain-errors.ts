/** Typed chain-provider failures: callers branch on the class, never on provider text. */
export class ChainError extends Error {
  constructor(
    message: string,
    readonly provider: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Transport failure, timeout, 429 or 5xx (after retries for reads), or no rate-limit turn in time. Retry later. */
export class ChainUnavailableError extends ChainError {}

/** The provider refused the request (4xx, or `ok: false`): e.g. an external the wallet rejected. */
export class ChainRequestError extends ChainError {}

/** The provider answered something we cannot parse. */
export class ChainResponseError extends ChainError {}
