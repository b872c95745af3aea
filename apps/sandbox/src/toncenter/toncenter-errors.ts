import type { ErrorRequestHandler } from 'express';
import { BocError } from '../chain/message-hash';
import { ExternalRejectedError, ChainClosedError } from '../chain/local-chain';
import { TransactionNotFoundError } from '../chain/transaction-index';

/** An error answered in toncenter's shape: v2 `{ ok: false, error, code }`, v3 `{ error, code }`. */
export class ToncenterError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): ToncenterError => new ToncenterError(400, message);

/** Maps chain errors to the status/message toncenter would answer with. */
export function toToncenterError(err: unknown): ToncenterError {
  if (err instanceof ToncenterError) return err;
  if (err instanceof BocError) return new ToncenterError(400, `Failed to deserialize BOC: ${err.message}`);
  // toncenter relays the liteserver's rejection of a message that fails emulation.
  if (err instanceof ExternalRejectedError) return new ToncenterError(500, `LITE_SERVER_UNKNOWN: ${err.message}`);
  if (err instanceof TransactionNotFoundError) return new ToncenterError(500, `LITE_SERVER_UNKNOWN: ${err.message}`);
  if (err instanceof ChainClosedError) return new ToncenterError(503, 'Service Unavailable');
  if (err instanceof SyntaxError || err instanceof RangeError) return new ToncenterError(400, err.message);
  console.error('[sandbox] toncenter handler failed', err);
  return new ToncenterError(500, 'Internal Server Error');
}

export function toncenterErrorHandler(version: 'v2' | 'v3'): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    // express.json() parse failures carry a status.
    const status =
      typeof (err as { status?: unknown }).status === 'number' &&
      (err as { type?: string }).type === 'entity.parse.failed'
        ? 400
        : undefined;
    const e = status ? new ToncenterError(400, 'request body is not valid JSON') : toToncenterError(err);
    res
      .status(e.status)
      .json(version === 'v2' ? { ok: false, error: e.message, code: e.status } : { error: e.message, code: e.status });
  };
}
