import { ERROR_CATALOGUE, type ErrorCode } from './error-codes';

/**
 * Why a purchase ended failed or uncertain; the action shown beside it is always the error
 * catalogue's. The worker, the operator's resolution and the evidence collector all end a purchase
 * with errorBody(failure).
 */
export interface PurchaseFailure {
  code: ErrorCode;
  message?: string;
  details?: unknown[];
}

/** The `error` jsonb of a failed/reconciliation purchase, as the gateway shows it. */
export interface PurchaseErrorBody {
  code: ErrorCode;
  message: string;
  action?: string;
  details?: unknown[];
}

export function errorBody(failure: PurchaseFailure): PurchaseErrorBody {
  const definition = ERROR_CATALOGUE[failure.code] as { message: string; action?: string };
  const action = definition.action;
  return {
    code: failure.code,
    message: failure.message ?? definition.message,
    ...(action ? { action } : {}),
    ...(failure.details && failure.details.length > 0 ? { details: failure.details } : {}),
  };
}
