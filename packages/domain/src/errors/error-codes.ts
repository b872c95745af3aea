import { AMOUNT_DESCRIPTION } from '../products/product-registry';
import { PRODUCT_ERROR_DEFINITIONS } from '../products/product-rejections';
/**
 * The error catalogue: every stable `code` the service can answer with, its HTTP status
 * and the action a client should take. Codes never change meaning once published.
 */
export interface ErrorDefinition {
  readonly status: number;
  readonly message: string;
  readonly action?: string;
}

export const ERROR_CATALOGUE = {
  // Request shape and transport
  VALIDATION_FAILED: {
    status: 400,
    message: 'The request is invalid.',
    action: 'Fix the fields named in details, then send a new request.',
  },
  MALFORMED_JSON: {
    status: 400,
    message: 'The request body is not valid JSON.',
    action: 'Send a valid JSON document.',
  },
  UNKNOWN_FIELD: {
    status: 400,
    message: 'The request contains a field the API does not know.',
    action: 'Remove or correct the field named in details; typos are never ignored.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'The request body must be application/json.',
    action: 'Send Content-Type: application/json.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.', action: 'Send a smaller body.' },
  NOT_FOUND: { status: 404, message: 'No such route.', action: 'Check the path and the HTTP method.' },
  INVALID_AMOUNT: {
    status: 400,
    message: 'The amount is not valid for this product.',
    // Each product pack's own description of its quantities (GET /api/v1/products has the limits).
    action: AMOUNT_DESCRIPTION,
  },

  // Purchases and idempotency
  PURCHASE_NOT_FOUND: {
    status: 404,
    message: 'No purchase with this id exists in this environment.',
    action: 'Check purchase_id and the environment (base URL).',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: 'This idempotency_key was already used for a different order.',
    action: 'Reuse a key only for the exact same logical order; use a new key for a new order.',
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    status: 409,
    message: 'A request with this idempotency_key is still being processed.',
    action: 'Wait for Retry-After seconds, then retry with the same key.',
  },

  // Wallet input (spec: wallet error codes)
  WALLET_SELECTION_REQUIRED: {
    status: 400,
    message: 'A 12-word seed needs wallet_address or account_index to select the account.',
    action: 'Add wallet_address or account_index.',
  },
  INVALID_BIP39_SEED: {
    status: 400,
    message: 'The 12-word seed is not a valid BIP39 mnemonic.',
    action: 'Check all 12 words and their order.',
  },
  UNSUPPORTED_WALLET_SEED_FORMAT: {
    status: 400,
    message: 'The seed is not a 12-word or 24-word mnemonic, nor a canonical Base64 32-byte key.',
    action: 'Send a 12-word BIP39 seed, a 24-word TON seed, or a canonical Base64 32-byte private key.',
  },
  INVALID_WALLET_ADDRESS: {
    status: 400,
    message: 'The wallet address is not a valid address for this network.',
    action: 'Send a valid friendly or raw address.',
  },
  INVALID_ACCOUNT_INDEX: {
    status: 400,
    message: 'account_index must be an integer from 0 to 100.',
    action: 'Send an integer from 0 to 100.',
  },
  WALLET_ADDRESS_MISMATCH: {
    status: 400,
    message: 'The wallet address does not belong to this seed (or to this account index).',
    action: 'Correct the address/index pair or resolve again.',
  },
  WALLET_INDEX_NOT_FOUND: {
    status: 400,
    message: 'No account index from 0 to 100 of this seed has this address.',
    action: 'Call the resolver and reuse its account_index.',
  },
  WALLET_RESOLVER_BUSY: {
    status: 503,
    message: 'The wallet resolver is busy.',
    action: 'Wait briefly and retry the same resolve request.',
  },
  SEED_NOT_ACCEPTED: {
    status: 400,
    message: 'A checkout never takes a wallet secret (seed, mnemonic or private key).',
    action:
      'Remove the secret and send only payer_address (plus payer_public_key and payer_state_init from TON Connect); the buyer signs in its own wallet. Treat the secret as exposed if it was sent from a browser.',
  },
  CHECKOUT_NOT_FOUND: {
    status: 404,
    message: 'No checkout with this id exists in this environment.',
    action: 'Check checkout_id and the environment (base URL).',
  },
  CHECKOUT_PAYER_KEY_REQUIRED: {
    status: 400,
    message: 'The payer wallet is not deployed yet, so its public key and state init cannot be read from the chain.',
    action:
      "Send payer_public_key and payer_state_init, as TON Connect's account (publicKey, walletStateInit) gives them.",
  },
  CHECKOUT_PAYER_STATE_INIT_MISMATCH: {
    status: 400,
    message: 'payer_state_init does not belong to payer_address, or its key is not payer_public_key.',
    action: "Send the account's publicKey and walletStateInit exactly as the TON Connect wallet reported them.",
  },
  CHECKOUT_PAYER_WALLET_UNSUPPORTED: {
    status: 400,
    message: 'The payer account is not a standard V5R1, V4R2 or V3R2 wallet of this network.',
    action: 'Pay from a standard wallet (V5R1, V4R2 or V3R2) on this network.',
  },
  CHECKOUT_NOT_AWAITING_SIGNATURE: {
    status: 409,
    message: 'This checkout does not wait for a signed transaction (not prepared yet, or already ended).',
    action: 'Poll the checkout; submit only while its status is awaiting_signature.',
  },
  CHECKOUT_ALREADY_SUBMITTED: {
    status: 409,
    message: 'A different signed transaction was already accepted for this checkout.',
    action: 'Do not sign again: poll the checkout, which follows the transaction already accepted.',
  },
  CHECKOUT_BOC_INVALID: {
    status: 400,
    message: 'The signed BOC is not a single external message to a wallet.',
    action: 'Submit the base64 BOC returned by the wallet for this checkout, unchanged.',
  },
  CHECKOUT_WRONG_PAYER: {
    status: 400,
    message: 'The signed message is addressed to a different wallet than the checkout payer.',
    action: 'Sign with the payer wallet given when the checkout was created.',
  },
  CHECKOUT_BAD_SIGNATURE: {
    status: 400,
    message: 'The signature does not verify against the payer wallet key.',
    action: 'Sign the checkout transaction again in the payer wallet.',
  },
  CHECKOUT_WRONG_WALLET_ID: {
    status: 400,
    message: 'The signed message is for another network or subwallet.',
    action: 'Switch the wallet to the checkout network and sign again.',
  },
  CHECKOUT_EXPIRED: {
    status: 400,
    message: 'The signed message has expired or outlives the checkout validUntil.',
    action: 'Create a new checkout with a new idempotency_key and sign it before its validUntil.',
  },
  CHECKOUT_SEQNO_MISMATCH: {
    status: 409,
    message: 'The signed message uses a seqno the payer wallet no longer accepts.',
    action: 'Sign the checkout transaction again.',
  },
  CHECKOUT_MESSAGE_MISMATCH: {
    status: 400,
    message:
      'The signed messages differ from the checkout request (count, order, address, amount, payload or state init).',
    action: 'Approve the checkout transaction exactly as requested.',
  },

  // Availability (spec: rejection codes) and purchase outcomes
  AVAILABLE: { status: 200, message: 'The recipient can receive this product.' },
  RECIPIENT_NOT_FOUND: {
    status: 422,
    message: 'No Telegram user has this username.',
    action: 'Check the username with the customer.',
  },
  RECIPIENT_INELIGIBLE: {
    status: 422,
    message: 'This account cannot receive the product (a bot, a channel, or a user who cannot receive it now).',
    action: 'Ask the customer for a personal user account, or retry later.',
  },
  // The refusals only some product has, declared by its pack (products/).
  ...PRODUCT_ERROR_DEFINITIONS,
  PAYMENT_METHOD_UNAVAILABLE: {
    status: 422,
    message: 'This payment method is not available for this product.',
    action: 'Use payment_method=gram.',
  },
  TOP_UP_REQUIRED: {
    status: 422,
    message: 'The payer wallet does not hold enough funds.',
    action: 'Top up the payer wallet by the shortfall in details, then create a new purchase.',
  },
  PAYMENT_REJECTED_BY_POLICY: {
    status: 422,
    message: 'The upstream payment request failed a safety check; nothing was signed.',
    action: 'Inspect the purchase events; contact the operator.',
  },
  NOT_EXECUTED: {
    status: 422,
    message: 'The signed transaction expired without executing; no money left the wallet.',
    action: 'Create a new purchase with a new idempotency key if the order should still be delivered.',
  },
  TRANSACTION_FAILED: {
    status: 422,
    message: 'The transaction executed on chain but did not pay (skipped action, bounce or jetton failure).',
    action: 'Check the wallet balance and create a new purchase.',
  },
  UPSTREAM_SESSION_INVALID: {
    status: 502,
    message: 'The Fragment session is missing or expired.',
    action:
      'Operator: log in to fragment.com with the paying wallet connected, copy the cookies into FRAGMENT_COOKIES, restart the worker, then create a new purchase.',
  },
  UPSTREAM_VERIFICATION_REQUIRED: {
    status: 502,
    message: 'Fragment requires account or wallet verification (KYC).',
    action:
      'Operator: complete the verification (KYC) at fragment.com/kyc for the Fragment account in FRAGMENT_COOKIES, then create a new purchase.',
  },
  UPSTREAM_REJECTED: {
    status: 502,
    message: 'Fragment refused the request.',
    action:
      'Operator: inspect the purchase events. If Fragment answered in a shape starsgate does not know (protocol drift, logged as UPSTREAM_FORMAT), update starsgate.',
  },
  STEP_TIMED_OUT: {
    status: 504,
    message: 'A purchase step exceeded its maximum age before anything was paid.',
    action: 'Create a new purchase if the order should still be delivered.',
  },
  PURCHASE_FAILED: { status: 500, message: 'The purchase failed.', action: 'Inspect the purchase events.' },

  // Service state
  RATE_LIMITED: { status: 429, message: 'Too many requests.', action: 'Wait retry_after seconds, then retry.' },
  OPEN_ORDERS_LIMIT_REACHED: {
    status: 429,
    message: 'Too many orders are waiting to be paid (for this payer wallet, or in total).',
    action:
      'Wait retry_after seconds for open orders to be paid or to expire, then retry with the same idempotency_key.',
  },
  AVAILABILITY_RATE_LIMITED: {
    status: 429,
    message: 'Too many availability checks.',
    action: 'Wait retry_after seconds, then retry.',
  },
  AVAILABILITY_TEMPORARILY_UNAVAILABLE: {
    status: 503,
    message: 'Availability cannot be checked right now.',
    action: 'Keep payment disabled and retry later.',
  },
  PRICES_UNAVAILABLE: {
    status: 503,
    message: 'No price has been fetched yet and the upstream cannot answer.',
    action: 'Retry later.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable.',
    action: 'Retry later with the same idempotency key.',
  },
  INTERNAL_ERROR: {
    status: 500,
    message: 'An internal error occurred.',
    action: 'Keep the same idempotency key and check the purchase status first.',
  },

  // Purchase outcomes needing an operator (appended)
  DELIVERY_UNCONFIRMED: {
    status: 502,
    message: 'The payment left the wallet but Fragment did not report delivery before the deadline.',
    action:
      'Operator: check the order on fragment.com (Ref# in details/evidence) and the transaction; never create an automatic replacement purchase.',
  },
  OUTCOME_UNKNOWN: {
    status: 502,
    message: 'Whether the signed payment executed could not be established (the chain provider did not answer).',
    action: 'Operator: look up the normalized message hash and the wallet seqno in evidence before any new purchase.',
  },

  // Operator API (/admin/api)
  ADMIN_TOKEN_REQUIRED: {
    status: 401,
    message: 'The admin API needs an Authorization: Bearer <token> header.',
    action: 'Send one of the tokens configured in STARSGATE_ADMIN_TOKENS.',
  },
  ADMIN_TOKEN_INVALID: {
    status: 403,
    message: 'The admin token is not valid.',
    action: 'Use a token listed in STARSGATE_ADMIN_TOKENS.',
  },
  ADMIN_AUTH_RATE_LIMITED: {
    status: 429,
    message: 'Too many failed admin authentications from this client or in total.',
    action: 'Wait retry_after seconds, then retry with a token listed in STARSGATE_ADMIN_TOKENS.',
  },
  ADMIN_CSRF_REJECTED: {
    status: 403,
    message: 'This request did not come from the admin dashboard itself (cross-site request refused).',
    action: 'Reload /admin and repeat the action from the page.',
  },
  ADMIN_QUEUES_READ_ONLY: {
    status: 405,
    message: 'Bull Board is read-only: jobs cannot be retried, removed, cleaned or paused from it.',
    action: 'Resolve purchases through /admin/api; set BULL_BOARD_WRITABLE=true to allow audited queue changes.',
  },
  INVALID_CURSOR: {
    status: 400,
    message: 'The cursor is not one this API returned.',
    action: 'Pass next_cursor exactly as returned, with the same filters.',
  },
  PURCHASE_NOT_IN_RECONCILIATION: {
    status: 409,
    message: 'Only a purchase in reconciliation_required can be resolved.',
    action: 'Read the purchase: it is still running or already settled.',
  },
  RESOLUTION_EVIDENCE_MISMATCH: {
    status: 409,
    message: "The transaction does not prove that this purchase's Fragment request was paid.",
    action: 'Check details: the transaction must be the payer wallet transaction paying the Fragment request.',
  },
  PAYMENT_EXECUTED: {
    status: 409,
    message: "The chain shows this purchase's payment executed: it cannot be resolved as failed.",
    action: 'Resolve it as completed with the transaction hash in details once delivery is checked on Fragment.',
  },
  PAYMENT_MAY_STILL_LAND: {
    status: 409,
    message: "This purchase's signed payment is not on chain but is still valid: it may yet execute.",
    action: 'Wait until valid_until (in details) has passed, then resolve it again.',
  },
  PAYMENT_SCAN_INCOMPLETE: {
    status: 409,
    message:
      "The payer wallet's history could not be read back to when this payment was signed: whether it executed is unknown.",
    action:
      'Look the payment up in a block explorer with the normalized hash and seqno in evidence, then resolve it again.',
  },
  PURCHASE_CHANGED: {
    status: 409,
    message: 'The purchase changed while the request was processed.',
    action: 'Read the purchase again and repeat the request if it still applies.',
  },
  CHAIN_UNAVAILABLE: {
    status: 503,
    message: 'The chain provider cannot be asked right now; nothing was changed.',
    action: 'Retry later.',
  },
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    status: 404,
    message: 'No webhook endpoint with this id exists.',
    action: 'List the endpoints and use one of their ids.',
  },
  WEBHOOK_DELIVERY_NOT_FOUND: {
    status: 404,
    message: 'No webhook delivery with this id exists.',
    action: 'List the deliveries and use one of their ids.',
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    message:
      'The webhook URL must be https (plain http only to a loopback address unless WEBHOOK_ALLOW_HTTP=true) and its host must resolve to public addresses only (unless WEBHOOK_ALLOW_PRIVATE admits them).',
    action:
      'Use an https URL whose host resolves to a public address, or set WEBHOOK_ALLOW_PRIVATE on the gateway and the worker.',
  },
  CHECKOUT_PROOF_REQUIRED: {
    status: 400,
    message: "This gateway requires TON Connect's ton_proof for the payer wallet of a checkout.",
    action:
      'Get a payload from POST /api/v1/checkouts/ton-proof-payload, ask the wallet for ton_proof with it when connecting, and send the proof as ton_proof.',
  },
  CHECKOUT_PROOF_INVALID: {
    status: 400,
    message:
      'The ton_proof does not prove the payer wallet: its payload was not issued here or expired, its domain is not allowed, it is too old, or its signature does not verify.',
    action: 'Connect the wallet again with a fresh payload and send the new proof.',
  },
  CHECKOUT_SUBMISSIONS_LIMITED: {
    status: 429,
    message: 'Too many signed transactions were submitted to this checkout lately.',
    action:
      "Wait retry_after seconds, then submit the wallet's BOC once; the checkout is also found on chain without it.",
  },
  OPEN_CHECKOUTS_LIMIT_REACHED: {
    status: 429,
    message: 'This payer wallet already has as many checkouts waiting to be paid as one wallet may have.',
    action:
      'Pay or let expire one of its open checkouts (a checkout expires within minutes), then retry with the same idempotency_key.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
