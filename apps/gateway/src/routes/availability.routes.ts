import { Router, type Request } from 'express';
import {
  lineAmount,
  orderLineFromRequest,
  AppError,
  AvailabilityCheckRequestSchema,
  WALLET_FIELDS,
  createValidator,
  describeAvailability,
  normalizePaymentMethod,
  type AvailabilityCheckRequest,
  type AvailabilityResultBody,
} from '@starsgate/domain';
import { isReadError, type AvailabilityChecker } from '@starsgate/fragment';
import type { GatewayMetrics } from '../observability/metrics';

const validateCheck = createValidator<AvailabilityCheckRequest>(AvailabilityCheckRequestSchema);

/** Seconds suggested to a client when Fragment gave no better hint. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

export interface AvailabilityRouteDeps {
  availability: AvailabilityChecker;
  metrics: GatewayMetrics;
}

const CACHE_RESULT: Record<string, 'hit' | 'miss' | undefined> = { memory: 'hit', cache: 'hit', upstream: 'miss' };

/** A wallet secret or address has no business here: refuse it by name, before anything else. */
function rejectWalletFields(body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const sent = WALLET_FIELDS.filter((field) => Object.prototype.hasOwnProperty.call(body, field));
  if (sent.length === 0) return;
  const message =
    'Wallets are not accepted here: an availability check needs no seed or wallet. Remove the field; never send a seed where it is not required.';
  throw new AppError('UNKNOWN_FIELD', {
    message,
    details: sent.map((field) => ({ field, message: 'wallets are not accepted by availability checks' })),
    action: 'Send only product, username, amount and payment_method.',
  });
}

/** Why a check was refused, in words a shop can log; the wait is in retry_after either way. */
const RATE_LIMIT_MESSAGES: Partial<Record<string, string>> = {
  username_budget:
    'Too many availability checks for this username; the recipient lookup budget protects the Fragment account.',
  global_budget: 'Too many availability checks right now; the recipient lookup budget protects the Fragment account.',
  upstream_rate_limited: 'Fragment asked this service to slow down; availability cannot be checked for a moment.',
  upstream_cooldown: 'Fragment asked this service to slow down; availability cannot be checked for a moment.',
};

function retryAfterSeconds(ms: number | undefined): number {
  return ms === undefined ? DEFAULT_RETRY_AFTER_SECONDS : Math.max(1, Math.ceil(ms / 1000));
}

function toAppError(req: Request, error: unknown): unknown {
  if (!isReadError(error)) return error;
  req.log.warn('availability check not answered', { reason: error.reason, kind: error.kind });
  if (error.kind === 'RATE_LIMITED') {
    return new AppError('AVAILABILITY_RATE_LIMITED', {
      message: RATE_LIMIT_MESSAGES[error.reason] ?? RATE_LIMIT_MESSAGES.global_budget,
      retryAfterSeconds: retryAfterSeconds(error.retryAfterMs),
    });
  }
  return new AppError('AVAILABILITY_TEMPORARILY_UNAVAILABLE', {
    retryAfterSeconds: retryAfterSeconds(error.retryAfterMs),
  });
}

export function availabilityRoutes(deps: AvailabilityRouteDeps): Router {
  const router = Router();

  router.post('/api/v1/availability/check', async (req, res) => {
    rejectWalletFields(req.body);
    const input = validateCheck(req.body);
    // The schema's enum holds only known spellings, so this always resolves.
    const paymentMethod = normalizePaymentMethod(input.payment_method) ?? 'gram';
    const line = orderLineFromRequest(input.product, input.username, input);
    let answer;
    try {
      answer = await deps.availability.check({
        product: input.product,
        username: input.username,
        amount: lineAmount(line),
        quantities: line.quantities,
        paymentMethod,
      });
    } catch (error) {
      throw toAppError(req, error);
    }
    const cacheResult = CACHE_RESULT[answer.source];
    if (cacheResult) deps.metrics.readCache.inc({ read: 'availability', result: cacheResult });
    const subject = {
      product: input.product,
      username: input.username,
      amount: lineAmount(line),
      quantities: line.quantities,
      payment_method: paymentMethod,
    };
    const text = describeAvailability(answer.code, subject);
    const body: AvailabilityResultBody = {
      available: answer.code === 'AVAILABLE',
      code: answer.code,
      message: text.message,
      action: text.action,
      ...subject,
      checked_at: new Date(answer.checkedAt).toISOString(),
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(body);
  });

  return router;
}
