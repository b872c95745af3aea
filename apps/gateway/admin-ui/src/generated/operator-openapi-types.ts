// Generated from the gateway's /admin/api/openapi.json by `npm run openapi:update -w @starsgate/sdk`. Do not edit.

export interface AdminFragmentSessionsResponse {
  data: Array<{
    /**
     * The login session (12 hex of a hash of its stel_ssid).
     */
    session_id: string;
    /**
     * The Telegram account it belongs to (12 hex).
     */
    account_id: string;
    state: 'alive' | 'dead';
    /**
     * When it became alive or dead.
     */
    since: string;
    /**
     * Why it is dead.
     */
    reason?: string | null;
    /**
     * The wallet linked to the account, as its page shows it (raw form).
     */
    wallet_address?: string | null;
    last_order_at?: string | null;
    checked_at?: string | null;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

export interface AdminListWebhookEndpointsResponse {
  data?: Array<WebhookEndpoint>;
  [key: string]: unknown;
}

export interface AdminPipelineResponse {
  open: Array<{
    [key: string]: unknown;
  }>;
  throughput: Array<{
    [key: string]: unknown;
  }>;
  wallets_in_flight: Array<{
    [key: string]: unknown;
  }>;
  workers: Array<{
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

export interface AdminPurchaseDetail {
  purchase_id: string;
  /**
   * Only `completed` confirms delivery. `failed` and `reconciliation_required` are terminal too; never replace a `reconciliation_required` purchase automatically.
   */
  status:
    | 'queued'
    | 'preparing'
    | 'sending'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'reconciliation_required'
    | 'awaiting_signature'
    | 'expired';
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  username: string;
  amount: number;
  /**
   * The order line's quantities by name: `{"stars": 50}`, `{"months": 6}`, `{"gram": 10}`, `{"winners": 10, "months": 3}` (GET /api/v1/products names each product's).
   */
  quantities: {
    [key: string]: number;
  };
  payment_method: 'gram' | 'usdt';
  created_at: string;
  updated_at: string;
  /**
   * Present when completed: hash of the payer wallet transaction (hex).
   */
  transaction_hash?: string;
  /**
   * Present when failed or reconciliation_required.
   */
  error?: {
    /**
     * Stable failure code, e.g. RECIPIENT_NOT_FOUND, TOP_UP_REQUIRED, NOT_EXECUTED.
     */
    code: string;
    message: string;
    action?: string;
    /**
     * TOP_UP_REQUIRED: one entry per currency with what the payer wallet needs, holds and lacks.
     */
    details?: Array<{
      field?: string;
      message?: string;
      currency?: 'GRAM' | 'USDT';
      /**
       * What the purchase needs in `currency`, network fees included.
       */
      required?: string;
      /**
       * What the payer wallet holds in `currency`.
       */
      available?: string;
      /**
       * What is missing in `currency` ("0" where covered).
       */
      shortfall?: string;
      [key: string]: unknown;
    }>;
  };
  /**
   * `server_signed`: a purchase; `client_signed`: a checkout (its `purchase_id` is the `checkout_id`).
   */
  mode: 'server_signed' | 'client_signed';
  idempotency_key: string;
  /**
   * Payer wallet (raw form) once known.
   */
  wallet_address: string | null;
  /**
   * Row version: grows with every change.
   */
  version: number;
  completed_at?: string | null;
  wallet_version?: string | null;
  fragment_request_id?: string | null;
  fragment_ref?: string | null;
  /**
   * Ids of our identical paid orders (same recipient, product and quantity, on the same Fragment account) not completed yet: the history tells identical orders apart by count only, so this one waits until they are listed too. Empty unless the purchase is confirming (or went to reconciliation from there).
   */
  waiting_on_lookalikes: Array<string>;
  /**
   * Why a paid purchase is still waiting, for people: "waiting on look-alike <id>[, <id>…]", or that Fragment has not listed the delivery yet. Null when it is not waiting on Fragment.
   */
  waiting_reason: string | null;
  /**
   * Label of the Fragment login session that created the order.
   */
  fragment_session?: string | null;
  /**
   * The wallet Fragment named as `transaction.from` in its payment request (raw form): the payer, or the wallet linked to the Fragment account. Null before the request was accepted.
   */
  fragment_from?: string | null;
  /**
   * Whether `fragment_from` is the paying wallet. When false the payer paid Fragment's request anyway (a USDT transfer went through the payer's own jetton wallet).
   */
  fragment_from_is_payer?: boolean | null;
  /**
   * What Fragment asked to be paid: currency and base-unit amounts (decimal strings).
   */
  paid_amount?: {
    currency?: string;
    /**
     * The invoice in base units of `currency` (nanoGRAM or micro-USDT).
     */
    quote?: string | null;
    /**
     * `quote` for people: "0.4412 GRAM", "0.75 USDT".
     */
    quote_human?: string | null;
    /**
     * nanoGRAM the payment message carries.
     */
    message_nano?: string | null;
    /**
     * `message_nano` for people: "0.4412 GRAM".
     */
    message_human?: string | null;
    /**
     * USDT base units the jetton transfer moves.
     */
    jetton_units?: string | null;
    /**
     * `jetton_units` for people: "0.75 USDT".
     */
    jetton_human?: string | null;
    receiver?: string;
    [key: string]: unknown;
  } | null;
  /**
   * TEP-467 normalized hash of the signed external (hex).
   */
  normalized_hash?: string | null;
  /**
   * Hash of the signed external message as broadcast (hex).
   */
  external_hash?: string | null;
  seqno?: number | null;
  valid_until?: number | null;
  transaction_lt?: string | null;
  attempt?: number;
  next_run_at?: string;
  /**
   * What the worker and the evidence collector gathered.
   */
  evidence: {
    [key: string]: unknown;
  } | null;
  events: Array<{
    at: string;
    /**
     * `transition`, `step` (same status) or `operator`.
     */
    type: string;
    from_status: string | null;
    to_status: string;
    actor: string;
    reason?: string | null;
    details: unknown;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

export interface AdminPurchaseList {
  data: Array<AdminPurchaseSummary>;
  /**
   * Null at the end.
   */
  next_cursor: string | null;
  [key: string]: unknown;
}

/**
 * The public purchase plus what an operator searches by.
 */
export interface AdminPurchaseSummary {
  purchase_id: string;
  /**
   * Only `completed` confirms delivery. `failed` and `reconciliation_required` are terminal too; never replace a `reconciliation_required` purchase automatically.
   */
  status:
    | 'queued'
    | 'preparing'
    | 'sending'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'reconciliation_required'
    | 'awaiting_signature'
    | 'expired';
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  username: string;
  amount: number;
  /**
   * The order line's quantities by name: `{"stars": 50}`, `{"months": 6}`, `{"gram": 10}`, `{"winners": 10, "months": 3}` (GET /api/v1/products names each product's).
   */
  quantities: {
    [key: string]: number;
  };
  payment_method: 'gram' | 'usdt';
  created_at: string;
  updated_at: string;
  /**
   * Present when completed: hash of the payer wallet transaction (hex).
   */
  transaction_hash?: string;
  /**
   * Present when failed or reconciliation_required.
   */
  error?: {
    /**
     * Stable failure code, e.g. RECIPIENT_NOT_FOUND, TOP_UP_REQUIRED, NOT_EXECUTED.
     */
    code: string;
    message: string;
    action?: string;
    /**
     * TOP_UP_REQUIRED: one entry per currency with what the payer wallet needs, holds and lacks.
     */
    details?: Array<{
      field?: string;
      message?: string;
      currency?: 'GRAM' | 'USDT';
      /**
       * What the purchase needs in `currency`, network fees included.
       */
      required?: string;
      /**
       * What the payer wallet holds in `currency`.
       */
      available?: string;
      /**
       * What is missing in `currency` ("0" where covered).
       */
      shortfall?: string;
      [key: string]: unknown;
    }>;
  };
  /**
   * `server_signed`: a purchase; `client_signed`: a checkout (its `purchase_id` is the `checkout_id`).
   */
  mode: 'server_signed' | 'client_signed';
  idempotency_key: string;
  /**
   * Payer wallet (raw form) once known.
   */
  wallet_address: string | null;
  /**
   * Row version: grows with every change.
   */
  version: number;
  completed_at?: string | null;
  [key: string]: unknown;
}

export interface AdminStats {
  /**
   * Purchases by status.
   */
  counts: {
    [key: string]: number;
  };
  /**
   * Per non-terminal status: how long its oldest purchase has been in it.
   */
  oldest_age_seconds: {
    [key: string]: number;
  };
  reconciliation: {
    open?: number;
    oldest_age_seconds?: number | null;
    [key: string]: unknown;
  };
  last_hour: {
    completed?: number;
    failed?: number;
    [key: string]: unknown;
  };
  /**
   * BullMQ job counts per queue.
   */
  queues: {
    [key: string]: {
      waiting?: number;
      active?: number;
      delayed?: number;
      failed?: number;
      [key: string]: unknown;
    };
  };
  /**
   * Upstream answers of a shape the service cannot read (e.g. a Fragment history page whose markup changed), one entry per source and session, newest first. Any entry means delivery proof from that source is not working.
   */
  upstream_format_errors: Array<{
    source: string;
    /**
     * A non-secret name of the Fragment login.
     */
    session_id: string;
    problem: string;
    occurrences: number;
    first_seen_at: string;
    last_seen_at: string;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

/**
 * A server-signed purchase. Unknown fields are rejected (400 UNKNOWN_FIELD), never ignored.
 */
export interface CreatePurchaseRequest {
  /**
   * `stars`, `premium`, `gram` or `premium_giveaway`.
   */
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  /**
   * Recipient: `@` followed by 1 to 32 letters, digits or underscores.
   */
  username: string;
  /**
   * Stars: 50 to 1,000,000. Premium: months, 3, 6 or 12. GRAM top-up: whole GRAM, 1 to 1,000,000. Premium giveaway: `winners` 1 to 24,000 and `months` 3, 6 or 12 instead of amount (amount shows the winners).
   */
  amount?: number;
  /**
   * A quantity of the products whose fields name it (GET /api/v1/products lists each product's fields and limits); refused for the others (`winners`).
   */
  winners?: number;
  /**
   * A quantity of the products whose fields name it (GET /api/v1/products lists each product's fields and limits); refused for the others (`months`).
   */
  months?: number;
  /**
   * `gram` or `usdt`. The aliases `ton` (gram), `usdt_ton` and `usdt_gram` (usdt) are accepted and stored in canonical form. GRAM top-up: `gram` only. Another method for such a product: 400 PAYMENT_METHOD_UNAVAILABLE (availability: code PAYMENT_METHOD_UNAVAILABLE).
   */
  payment_method: 'gram' | 'ton' | 'usdt' | 'usdt_ton' | 'usdt_gram';
  /**
   * Wallet secret: 12-word BIP39 mnemonic, 24-word TON mnemonic, or canonical Base64 of a 32-byte ed25519 private key. Send only from a trusted backend. Encrypted at rest, destroyed when the purchase ends, never logged.
   */
  seed: string;
  /**
   * Payer wallet, friendly (EQ…/UQ…) or raw (0:hex) form. Finds or verifies the account of a 12-word seed.
   */
  wallet_address?: string;
  /**
   * Selects the V5R1 account m/44'/607'/{account_index}' of a 12-word seed (0 to 100).
   */
  account_index?: number;
  /**
   * 1 to 128 printable ASCII characters; one key per logical order. Scoped to the payer (a purchase's seed, a checkout's payer_address): another payer's key of the same string is a different order, never a conflict or a replay. Use a random key (a UUID) stored with the order.
   */
  idempotency_key: string;
}

export interface CreateWebhookEndpointRequest {
  /**
   * https (http only to loopback unless WEBHOOK_ALLOW_HTTP=true).
   */
  url: string;
  description?: string;
  /**
   * Event types to receive; all when absent.
   */
  events?: Array<
    | 'purchase.queued'
    | 'purchase.preparing'
    | 'purchase.sending'
    | 'purchase.submitted'
    | 'purchase.confirming'
    | 'purchase.completed'
    | 'purchase.failed'
    | 'purchase.reconciliation_required'
    | 'checkout.preparing'
    | 'checkout.awaiting_signature'
    | 'checkout.submitted'
    | 'checkout.confirming'
    | 'checkout.completed'
    | 'checkout.failed'
    | 'checkout.expired'
    | 'checkout.reconciliation_required'
  >;
}

/**
 * Every non-2xx answer has this body. `code` is stable; `message` and `action` are human texts.
 */
export interface ErrorBody {
  /**
   * Stable machine-readable error code.
   */
  code:
    | 'VALIDATION_FAILED'
    | 'MALFORMED_JSON'
    | 'UNKNOWN_FIELD'
    | 'UNSUPPORTED_MEDIA_TYPE'
    | 'PAYLOAD_TOO_LARGE'
    | 'NOT_FOUND'
    | 'INVALID_AMOUNT'
    | 'PURCHASE_NOT_FOUND'
    | 'IDEMPOTENCY_KEY_REUSED'
    | 'IDEMPOTENCY_REQUEST_IN_PROGRESS'
    | 'WALLET_SELECTION_REQUIRED'
    | 'INVALID_BIP39_SEED'
    | 'UNSUPPORTED_WALLET_SEED_FORMAT'
    | 'INVALID_WALLET_ADDRESS'
    | 'INVALID_ACCOUNT_INDEX'
    | 'WALLET_ADDRESS_MISMATCH'
    | 'WALLET_INDEX_NOT_FOUND'
    | 'WALLET_RESOLVER_BUSY'
    | 'SEED_NOT_ACCEPTED'
    | 'CHECKOUT_NOT_FOUND'
    | 'CHECKOUT_PAYER_KEY_REQUIRED'
    | 'CHECKOUT_PAYER_STATE_INIT_MISMATCH'
    | 'CHECKOUT_PAYER_WALLET_UNSUPPORTED'
    | 'CHECKOUT_NOT_AWAITING_SIGNATURE'
    | 'CHECKOUT_ALREADY_SUBMITTED'
    | 'CHECKOUT_BOC_INVALID'
    | 'CHECKOUT_WRONG_PAYER'
    | 'CHECKOUT_BAD_SIGNATURE'
    | 'CHECKOUT_WRONG_WALLET_ID'
    | 'CHECKOUT_EXPIRED'
    | 'CHECKOUT_SEQNO_MISMATCH'
    | 'CHECKOUT_MESSAGE_MISMATCH'
    | 'AVAILABLE'
    | 'RECIPIENT_NOT_FOUND'
    | 'RECIPIENT_INELIGIBLE'
    | 'PREMIUM_ALREADY_ACTIVE'
    | 'PAYMENT_METHOD_UNAVAILABLE'
    | 'TOP_UP_REQUIRED'
    | 'PAYMENT_REJECTED_BY_POLICY'
    | 'NOT_EXECUTED'
    | 'TRANSACTION_FAILED'
    | 'UPSTREAM_SESSION_INVALID'
    | 'UPSTREAM_VERIFICATION_REQUIRED'
    | 'UPSTREAM_REJECTED'
    | 'STEP_TIMED_OUT'
    | 'PURCHASE_FAILED'
    | 'RATE_LIMITED'
    | 'OPEN_ORDERS_LIMIT_REACHED'
    | 'AVAILABILITY_RATE_LIMITED'
    | 'AVAILABILITY_TEMPORARILY_UNAVAILABLE'
    | 'PRICES_UNAVAILABLE'
    | 'SERVICE_UNAVAILABLE'
    | 'INTERNAL_ERROR'
    | 'DELIVERY_UNCONFIRMED'
    | 'OUTCOME_UNKNOWN'
    | 'ADMIN_TOKEN_REQUIRED'
    | 'ADMIN_TOKEN_INVALID'
    | 'ADMIN_AUTH_RATE_LIMITED'
    | 'ADMIN_CSRF_REJECTED'
    | 'ADMIN_QUEUES_READ_ONLY'
    | 'INVALID_CURSOR'
    | 'PURCHASE_NOT_IN_RECONCILIATION'
    | 'RESOLUTION_EVIDENCE_MISMATCH'
    | 'PAYMENT_EXECUTED'
    | 'PAYMENT_MAY_STILL_LAND'
    | 'PAYMENT_SCAN_INCOMPLETE'
    | 'PURCHASE_CHANGED'
    | 'CHAIN_UNAVAILABLE'
    | 'WEBHOOK_ENDPOINT_NOT_FOUND'
    | 'WEBHOOK_DELIVERY_NOT_FOUND'
    | 'WEBHOOK_URL_NOT_ALLOWED'
    | 'CHECKOUT_PROOF_REQUIRED'
    | 'CHECKOUT_PROOF_INVALID'
    | 'CHECKOUT_SUBMISSIONS_LIMITED'
    | 'OPEN_CHECKOUTS_LIMIT_REACHED';
  message: string;
  /**
   * One entry per offending field (empty when the error is not about a field).
   */
  details: Array<{
    field: string;
    message: string;
  }>;
  /**
   * What the client should do next.
   */
  action?: string;
  /**
   * Seconds to wait before retrying (429, 503, 409 in progress).
   */
  retry_after?: number;
  /**
   * Echo of the Request-Id header; quote it in support requests.
   */
  request_id: string;
}

export interface Purchase {
  purchase_id: string;
  /**
   * Only `completed` confirms delivery. `failed` and `reconciliation_required` are terminal too; never replace a `reconciliation_required` purchase automatically.
   */
  status:
    | 'queued'
    | 'preparing'
    | 'sending'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'reconciliation_required'
    | 'awaiting_signature'
    | 'expired';
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  username: string;
  amount: number;
  /**
   * The order line's quantities by name: `{"stars": 50}`, `{"months": 6}`, `{"gram": 10}`, `{"winners": 10, "months": 3}` (GET /api/v1/products names each product's).
   */
  quantities: {
    [key: string]: number;
  };
  payment_method: 'gram' | 'usdt';
  created_at: string;
  updated_at: string;
  /**
   * Present when completed: hash of the payer wallet transaction (hex).
   */
  transaction_hash?: string;
  /**
   * Present when failed or reconciliation_required.
   */
  error?: {
    /**
     * Stable failure code, e.g. RECIPIENT_NOT_FOUND, TOP_UP_REQUIRED, NOT_EXECUTED.
     */
    code: string;
    message: string;
    action?: string;
    /**
     * TOP_UP_REQUIRED: one entry per currency with what the payer wallet needs, holds and lacks.
     */
    details?: Array<{
      field?: string;
      message?: string;
      currency?: 'GRAM' | 'USDT';
      /**
       * What the purchase needs in `currency`, network fees included.
       */
      required?: string;
      /**
       * What the payer wallet holds in `currency`.
       */
      available?: string;
      /**
       * What is missing in `currency` ("0" where covered).
       */
      shortfall?: string;
      [key: string]: unknown;
    }>;
  };
}

/**
 * 202 means accepted, not delivered. Poll status_url until a terminal status.
 */
export interface PurchaseAccepted {
  purchase_id: string;
  /**
   * `queued` for a new purchase; the current status on an idempotent replay.
   */
  status:
    | 'queued'
    | 'preparing'
    | 'sending'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'reconciliation_required'
    | 'awaiting_signature'
    | 'expired';
  /**
   * Relative path `/api/v1/purchases/<purchase_id>`.
   */
  status_url: string;
}

export interface ResolvePurchaseRequest {
  outcome: 'completed' | 'failed';
  /**
   * Why (audited).
   */
  reason: string;
  /**
   * Who acts (audited).
   */
  operator: string;
  /**
   * Required for `completed`: the payer wallet transaction that paid this purchase's Fragment request (hex or Base64).
   */
  transaction_hash?: string;
}

export interface WebhookDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  purchase_id: string;
  sequence: number;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at?: string | null;
  last_attempt_at?: string | null;
  /**
   * HTTP status of the last attempt (null: no answer).
   */
  last_status?: number | null;
  last_error?: string | null;
  delivered_at?: string | null;
  created_at?: string;
  [key: string]: unknown;
}

export interface WebhookDeliveryList {
  data: Array<WebhookDelivery>;
  next_cursor: string | null;
  [key: string]: unknown;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description?: string | null;
  /**
   * Null: every event type.
   */
  events: Array<string> | null;
  created_at: string;
  /**
   * Masked: the valid secrets, newest first; a rotated-out one with when it stops signing.
   */
  secrets: Array<{
    hint?: string;
    expires_at?: string | null;
    [key: string]: unknown;
  }>;
  [key: string]: unknown;
}

export interface WebhookEndpointWithSecret {
  id: string;
  url: string;
  description?: string | null;
  /**
   * Null: every event type.
   */
  events: Array<string> | null;
  created_at: string;
  /**
   * Masked: the valid secrets, newest first; a rotated-out one with when it stops signing.
   */
  secrets: Array<{
    hint?: string;
    expires_at?: string | null;
    [key: string]: unknown;
  }>;
  /**
   * The signing secret: shown only in this response.
   */
  secret: string;
  [key: string]: unknown;
}
