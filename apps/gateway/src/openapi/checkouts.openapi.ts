import {
  CheckoutAcceptedSchema,
  CheckoutSchema,
  CreateCheckoutRequestSchema,
  SubmitCheckoutRequestSchema,
  TonConnectTransactionSchema,
  TonProofPayloadSchema,
} from '@starsgate/domain';
import { CLIENT_ERRORS, OPEN_ORDERS_429, type OpenApiContribution } from './openapi-document';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const errorResponse = (description: string) => ({ description, content: json(ref('ErrorBody')) });
const checkoutIdParameter = {
  name: 'checkout_id',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
};
const REPLAYED = {
  'Idempotent-Replayed': { description: '`true` when answered from an earlier request.', schema: { type: 'string' } },
};

export const checkoutsOpenApi: OpenApiContribution = {
  schemas: [
    CreateCheckoutRequestSchema,
    CheckoutAcceptedSchema,
    TonConnectTransactionSchema,
    CheckoutSchema,
    SubmitCheckoutRequestSchema,
    TonProofPayloadSchema,
  ],
  paths: {
    '/api/v1/checkouts/ton-proof-payload': {
      post: {
        operationId: 'createTonProofPayload',
        summary: "A payload for TON Connect's ton_proof, proving the checkout's payer wallet",
        description:
          "Ask the wallet for `ton_proof` with this payload when it connects (`tonConnectUI.setConnectRequestParameters({ state: 'ready', value: { tonProof: payload } })`), then send the wallet's proof as the checkout's `ton_proof`. A payload serves until `expires_at`.",
        responses: {
          '200': { description: 'A fresh payload.', content: json(ref('TonProofPayload')) },
          '429': CLIENT_ERRORS['429'],
          '503': errorResponse('SERVICE_UNAVAILABLE: Redis cannot be reached.'),
        },
      },
    },
    '/api/v1/checkouts': {
      post: {
        operationId: 'createCheckout',
        summary: 'Create a client-signed checkout (no secret: the buyer signs in its own wallet)',
        description: [
          'Stores the checkout and answers 202 `preparing`; the service then creates the Fragment order, checks the payment policy and the payer balances, and prepares a TON Connect transaction (`awaiting_signature`). Poll `status_url`, hand `transaction` to the wallet (`tonConnectUI.sendTransaction`), then POST the returned BOC to `/submitted`.',
          '',
          'Statuses: preparing → awaiting_signature → submitted → confirming → completed; or failed (e.g. TOP_UP_REQUIRED with the exact shortfall in `error.details`), expired (nothing was paid before valid_until, checked on chain), reconciliation_required. Only `completed` confirms delivery.',
          '',
          "Idempotency keys are scoped to this route and to the proven payer (with `ton_proof`) or, without a proof, to the client that sent the request (a purchase, another payer's checkout or another client may use the same string). A retry with the same key and the same order answers 202 with the current status and `Idempotent-Replayed: true`; the key reused for another order is 409 IDEMPOTENCY_KEY_REUSED.",
        ].join('\n'),
        requestBody: { required: true, content: json(ref('CreateCheckoutRequest')) },
        responses: {
          '202': {
            description: 'Accepted (or replayed).',
            headers: { ...REPLAYED, Location: { schema: { type: 'string' } } },
            content: json(ref('CheckoutAccepted')),
          },
          '409': errorResponse(
            'IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_REQUEST_IN_PROGRESS (retry after `Retry-After`).',
          ),
          ...CLIENT_ERRORS,
          '429': {
            ...OPEN_ORDERS_429,
            description: `${OPEN_ORDERS_429.description} Or OPEN_CHECKOUTS_LIMIT_REACHED (field payer_address): this payer wallet already has OPEN_CHECKOUTS_PER_PAYER checkouts waiting to be paid.`,
          },
          '400': errorResponse(
            'Invalid request. Besides VALIDATION_FAILED, UNKNOWN_FIELD, INVALID_AMOUNT, PAYMENT_METHOD_UNAVAILABLE and INVALID_WALLET_ADDRESS: SEED_NOT_ACCEPTED (a seed, mnemonic, private_key or secret_key field; its value is never stored or logged), CHECKOUT_PAYER_KEY_REQUIRED (the payer wallet is not deployed: send payer_public_key and payer_state_init), CHECKOUT_PAYER_STATE_INIT_MISMATCH, CHECKOUT_PAYER_WALLET_UNSUPPORTED, CHECKOUT_PROOF_REQUIRED (this gateway requires `ton_proof`), CHECKOUT_PROOF_INVALID (`details[0].field` names what failed: `ton_proof.payload`, `ton_proof.domain`, `ton_proof.timestamp` or `ton_proof.signature`).',
          ),
          '503': errorResponse(
            'SERVICE_UNAVAILABLE: Redis or the chain provider (read to identify the payer wallet) cannot be reached; nothing was stored. Retry after `Retry-After` seconds with the same key.',
          ),
        },
      },
    },
    '/api/v1/checkouts/{checkout_id}': {
      get: {
        operationId: 'getCheckout',
        summary: 'Read a checkout (and, once prepared, the transaction to sign)',
        parameters: [checkoutIdParameter],
        responses: {
          '200': { description: 'The checkout.', content: json(ref('Checkout')) },
          '404': errorResponse('CHECKOUT_NOT_FOUND (also for the id of a server-signed purchase).'),
          '429': CLIENT_ERRORS['429'],
          '503': errorResponse('SERVICE_UNAVAILABLE: Redis cannot be reached.'),
        },
      },
    },
    '/api/v1/checkouts/{checkout_id}/submitted': {
      post: {
        operationId: 'submitCheckout',
        summary: 'Submit the BOC the wallet signed',
        description:
          "Verifies the signed external message against the prepared transaction (payer address, network wallet id, signature against the payer's key, seqno, valid_until, and each message's destination, bounce flag, amount, payload and state init). Each failure is a 4xx with its own code and nothing is stored or broadcast. An accepted BOC is stored with its normalized hash, broadcast (harmless if the wallet already did) and confirmed with Fragment by the worker: 202 with the checkout. The same BOC again is a replay (202, `Idempotent-Replayed: true`); a different BOC after one was accepted is 409 CHECKOUT_ALREADY_SUBMITTED. A payment the wallet broadcast by itself is found on chain even without this call.",
        parameters: [checkoutIdParameter],
        requestBody: { required: true, content: json(ref('SubmitCheckoutRequest')) },
        responses: {
          '202': { description: 'Accepted (or replayed).', headers: REPLAYED, content: json(ref('Checkout')) },
          '400': errorResponse(
            'CHECKOUT_BOC_INVALID, CHECKOUT_WRONG_PAYER, CHECKOUT_BAD_SIGNATURE, CHECKOUT_WRONG_WALLET_ID, CHECKOUT_MESSAGE_MISMATCH, or CHECKOUT_EXPIRED (valid_until has passed: create a new checkout with a new idempotency_key).',
          ),
          '404': errorResponse('CHECKOUT_NOT_FOUND.'),
          '409': errorResponse(
            'CHECKOUT_SEQNO_MISMATCH (sign again), CHECKOUT_ALREADY_SUBMITTED (another BOC was accepted), CHECKOUT_NOT_AWAITING_SIGNATURE (not prepared yet, or ended).',
          ),
          '429': {
            ...CLIENT_ERRORS['429'],
            description:
              'RATE_LIMITED (per client, CHECKOUT_SUBMIT_RATE_LIMIT_MAX besides the general limit), or CHECKOUT_SUBMISSIONS_LIMITED (field checkout_id): this checkout took CHECKOUT_SUBMISSIONS_PER_MINUTE submissions in the last minute, from any clients. Wait `Retry-After` seconds.',
          },
          '503': errorResponse(
            'SERVICE_UNAVAILABLE: Redis or the chain provider cannot be reached; nothing was stored.',
          ),
        },
      },
    },
  },
};
