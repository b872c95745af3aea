// Generated from the gateway's /openapi.json by `npm run openapi:update -w @starsgate/sdk`. Do not edit.

/**
 * The order-shaped part of a purchase: no wallet, no idempotency key. Unknown fields are rejected (400 UNKNOWN_FIELD); a seed or wallet field is refused with a message saying wallets are not accepted here.
 */
export interface AvailabilityCheckRequest {
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
}

/**
 * A point-in-time answer, not a reservation or a delivery guarantee. `available` is true only with code AVAILABLE. Repeat the check whenever product, username, amount or payment method changes.
 */
export interface AvailabilityResult {
  available: boolean;
  /**
   * AVAILABLE; RECIPIENT_NOT_FOUND (no such user); RECIPIENT_INELIGIBLE (bot, channel, or a user who cannot receive it now); PREMIUM_ALREADY_ACTIVE; PAYMENT_METHOD_UNAVAILABLE (switched off by the operator, or not offered for this product).
   */
  code:
    | 'AVAILABLE'
    | 'RECIPIENT_NOT_FOUND'
    | 'RECIPIENT_INELIGIBLE'
    | 'PREMIUM_ALREADY_ACTIVE'
    | 'PAYMENT_METHOD_UNAVAILABLE';
  /**
   * Human text a shop can show.
   */
  message: string;
  /**
   * What the shop should do next, as human text.
   */
  action: string;
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  /**
   * As sent.
   */
  username: string;
  amount: number;
  /**
   * The order line's quantities by name: `{"stars": 50}`, `{"months": 6}`, `{"gram": 10}`, `{"winners": 10, "months": 3}` (GET /api/v1/products names each product's).
   */
  quantities?: {
    [key: string]: number;
  };
  /**
   * Canonical form of the method sent.
   */
  payment_method: 'gram' | 'usdt';
  /**
   * When Fragment answered the recipient lookup this result rests on (answers are cached for seconds), or when the local payment-method rule was applied.
   */
  checked_at: string;
}

export interface Checkout {
  checkout_id: string;
  /**
   * preparing → awaiting_signature → submitted → confirming → completed; or failed, expired (nothing was paid before valid_until, checked on chain), reconciliation_required. Only `completed` confirms delivery.
   */
  status:
    | 'preparing'
    | 'awaiting_signature'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'expired'
    | 'reconciliation_required';
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
  /**
   * The payer wallet, raw form.
   */
  payer_address: string;
  created_at: string;
  updated_at: string;
  /**
   * Once prepared: the wallet must sign (and the BOC be submitted) before this time.
   */
  valid_until?: string;
  /**
   * Once prepared: what this transaction pays, exact decimal string, in its currency only.
   */
  prices?: {
    /**
     * GRAM this transaction pays.
     */
    gram?: string;
    /**
     * USDT this transaction pays.
     */
    usdt?: string;
  };
  transaction?: TonConnectTransaction;
  /**
   * Present when completed: the payer wallet transaction (hex).
   */
  transaction_hash?: string;
  /**
   * Present when failed, expired or reconciliation_required.
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
 * 202 means accepted: poll status_url until `awaiting_signature`, then have the wallet sign `transaction`.
 */
export interface CheckoutAccepted {
  checkout_id: string;
  /**
   * `preparing` for a new checkout; the current status on a replay.
   */
  status:
    | 'preparing'
    | 'awaiting_signature'
    | 'submitted'
    | 'confirming'
    | 'completed'
    | 'failed'
    | 'expired'
    | 'reconciliation_required';
  /**
   * Relative path `/api/v1/checkouts/<checkout_id>`.
   */
  status_url: string;
}

/**
 * A client-signed checkout: the buyer signs the prepared transaction in its own wallet, so no secret is ever sent. A `seed`, `mnemonic`, `private_key` or `secret_key` field is refused with 400 SEED_NOT_ACCEPTED; other unknown fields with 400 UNKNOWN_FIELD.
 */
export interface CreateCheckoutRequest {
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
   * The buyer's wallet (TON Connect `account.address`), friendly or raw form.
   */
  payer_address: string;
  /**
   * TON Connect `account.publicKey` (64 hex). Required only when the payer wallet is not deployed yet (400 CHECKOUT_PAYER_KEY_REQUIRED otherwise); for a deployed wallet the key is read from the chain.
   */
  payer_public_key?: string;
  /**
   * TON Connect `account.walletStateInit` (Base64 BOC). Required with payer_public_key for a wallet not deployed yet; it must hash to payer_address (400 CHECKOUT_PAYER_STATE_INIT_MISMATCH).
   */
  payer_state_init?: string;
  /**
   * TON Connect's `ton_proof` reply for payer_address (`connectItems.tonProof.proof`), exactly as the wallet returned it, its payload from POST /api/v1/checkouts/ton-proof-payload. Required when the gateway sets TON_PROOF_REQUIRED (production): 400 CHECKOUT_PROOF_REQUIRED without it, 400 CHECKOUT_PROOF_INVALID when it does not prove the payer. With a proof, idempotency keys are scoped to the payer wallet; without one, to the client that sent the request.
   */
  ton_proof?: {
    /**
     * Unix seconds when the wallet signed.
     */
    timestamp: number;
    domain: {
      lengthBytes: number;
      value: string;
    };
    payload: string;
    /**
     * Base64 ed25519 signature.
     */
    signature: string;
  };
  /**
   * 1 to 128 printable ASCII characters; one key per logical order. Scoped to the payer (a purchase's seed, a checkout's payer_address): another payer's key of the same string is a different order, never a conflict or a replay. Use a random key (a UUID) stored with the order.
   */
  idempotency_key: string;
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

/**
 * Reference prices: 50 Stars and Premium 3/6/12 months. Informational, not reserved.
 */
export interface PriceList {
  /**
   * Stars are priced linearly in USD; ask /api/v1/prices/quote for an exact quantity.
   */
  stars: {
    '50': PricePair;
  };
  premium: {
    '3': PricePair;
    '6': PricePair;
    '12': PricePair;
  };
  /**
   * true when the list is older than the refresh period allows because Fragment could not be asked.
   */
  stale: boolean;
  /**
   * When Fragment produced these prices.
   */
  updated_at: string;
}

export interface PricePair {
  /**
   * GRAM (TON coin), up to 9 decimals, exactly as Fragment prices it. Keep it a string.
   */
  gram: string;
  /**
   * USDT, up to 6 decimals (Fragment prices in USD; 1 USDT = 1 USD). Keep it a string.
   */
  usdt: string;
}

/**
 * Informational, not reserved: a fresh invoice is priced when a purchase starts.
 */
export interface PriceQuote {
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  amount: number;
  /**
   * The order line's quantities by name: `{"stars": 50}`, `{"months": 6}`, `{"gram": 10}`, `{"winners": 10, "months": 3}` (GET /api/v1/products names each product's).
   */
  quantities?: {
    [key: string]: number;
  };
  prices: PricePair;
  /**
   * true when Fragment could not be asked just now and the last known (or a derived) price is returned.
   */
  stale: boolean;
  /**
   * true when Fragment never priced this exact quantity and the value was computed from the last known per-star USD price and TON rate with Fragment's own rounding (always stale).
   */
  derived?: boolean;
  /**
   * When this answer was produced.
   */
  quoted_at: string;
  /**
   * When Fragment produced the underlying price.
   */
  updated_at: string;
}

export interface Product {
  product: 'stars' | 'premium' | 'gram' | 'premium_giveaway';
  title: string;
  /**
   * `user`: a personal account `@alice`; `channel`: a channel `@channel`.
   */
  recipient_kind: 'user' | 'channel';
  payment_methods: Array<'gram' | 'usdt'>;
  /**
   * `quoted`: Fragment prices it (ask /api/v1/prices/quote); `face_value`: the quantity is the price in GRAM.
   */
  pricing: 'quoted' | 'face_value';
  fields: Array<ProductField>;
}

/**
 * Every product sold, with its request fields and their limits, and its reference prices.
 */
export interface ProductCatalog {
  products: Array<Product>;
  /**
   * Reference prices by product, then by quantity (each product's reference quantities; a product priced at face value: 1 GRAM's worth). Informational, not reserved.
   */
  prices: {
    [key: string]: {
      [key: string]: PricePair;
    };
  };
  /**
   * true when the prices are older than the refresh period allows because Fragment could not be asked; with `prices` empty (and no `updated_at`) when no price was ever fetched.
   */
  stale: boolean;
  /**
   * When Fragment produced these prices.
   */
  updated_at?: string;
}

export interface ProductField {
  /**
   * The request field (`amount` for stars, premium and gram).
   */
  name: string;
  /**
   * The quantity it carries, as named in `quantities`.
   */
  quantity: string;
  type: 'integer';
  minimum?: number;
  maximum?: number;
  /**
   * The only values accepted.
   */
  choices?: Array<number>;
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

export interface ResolvedWallet {
  /**
   * Reuse in later purchase requests (0 for 24-word and Base64 seeds).
   */
  account_index: number;
  wallet_version: 'V5R1' | 'V4R2' | 'V3R2';
  /**
   * Non-bounceable friendly form.
   */
  wallet_address: string;
  /**
   * `0:<hex>` form.
   */
  raw_address: string;
  seed_format: 'bip39_12' | 'ton_24' | 'base64_key';
  network: 'mainnet' | 'testnet';
  /**
   * Why this contract version: chosen by the request, found deployed on chain, or the V5R1 default.
   */
  version_source: 'selection' | 'deployed' | 'default' | 'default_chain_unavailable';
  balances?: {
    /**
     * GRAM the wallet holds, up to 9 decimals.
     */
    gram: string;
    /**
     * USDT the wallet holds, up to 6 decimals.
     */
    usdt: string;
  };
  /**
   * Present instead of balances when the chain could not be read (CHAIN_UNAVAILABLE).
   */
  balances_error?: string;
}

/**
 * Spec resolution table: a 24-word seed or Base64 key is used directly (the deployed contract among V5R1/V4R2/V3R2 is chosen; account_index does not apply); a 12-word seed needs account_index, wallet_address, or both (verified as a pair).
 */
export interface ResolveWalletRequest {
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
}

export interface SubmitCheckoutRequest {
  /**
   * The signed external message, Base64, exactly as TON Connect `sendTransaction` returned it.
   */
  boc: string;
}

/**
 * A TON Connect `sendTransaction` request: hand it to `tonConnectUI.sendTransaction` unchanged.
 */
export interface TonConnectTransaction {
  /**
   * Unix seconds; the wallet must sign before it.
   */
  validUntil: number;
  /**
   * `-239` mainnet, `-3` testnet.
   */
  network: '-239' | '-3';
  /**
   * The payer wallet, raw form (`0:hex`).
   */
  from: string;
  messages: Array<{
    /**
     * Friendly address; its bounce flag is the message's. GRAM: Fragment's receiving address. USDT: the payer's own USDT jetton wallet.
     */
    address: string;
    /**
     * nanoGRAM the message carries (USDT: the GRAM attached for forwarding fees).
     */
    amount: string;
    /**
     * Base64 BOC of the body: Fragment's Ref# comment (GRAM) or a TEP-74 jetton `transfer` (USDT).
     */
    payload?: string;
    /**
     * Base64 BOC of a StateInit (never set by starsgate today).
     */
    stateInit?: string;
  }>;
}

export interface TonProofPayload {
  /**
   * What the wallet signs as TON Connect's ton_proof payload (`tonProof` connect item).
   */
  payload: string;
  /**
   * A proof made with it must arrive before this.
   */
  expires_at: string;
}
