import { ERROR_CATALOGUE, type ErrorCode } from '@starsgate/domain';

/** What went wrong; the action shown beside it is always the error catalogue's. */
export interface PurchaseFailure {
  code: ErrorCode;
  message?: string;
  details?: unknown[];
}

/** The `error` jsonb of a failed/reconciliation purchase, as the gateway shows it. */
export function errorBody(failure: PurchaseFailure): {
  code: string;
  message: string;
  action?: string;
  details?: unknown[];
} {
  const definition = ERROR_CATALOGUE[failure.code] as { message: string; action?: string };
  const action = definition.action;
  return {
    code: failure.code,
    message: failure.message ?? definition.message,
    ...(action ? { action } : {}),
    ...(failure.details && failure.details.length > 0 ? { details: failure.details } : {}),
  };
}
