export { Starsgate, type StarsgateOptions } from './client.js';
export type * from './products/index.js';
export { ROUTES } from './routes.js';
export { SDK_VERSION as VERSION } from './core/http.js';
export {
  APIConnectionError,
  APIResponseValidationError,
  APIStatusError,
  APITimeoutError,
  BrowserSecretError,
  IdempotencyConflictError,
  InsecureTransportError,
  NotFoundError,
  OrderFailedError,
  RateLimitError,
  ServiceUnavailableError,
  StarsgateError,
  TopUpRequiredError,
  ValidationError,
  WaitTimeoutError,
  WalletSelectionRequiredError,
  WebhookVerificationError,
  type Shortfall,
} from './core/errors.js';
export { isCompleted, isTerminal, needsReconciliation, RECONCILIATION_ADVICE, throwIfFailed } from './status.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookEvent,
} from './webhooks.js';
export type * from './types.js';
