import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import {
  AppError,
  createValidator,
  CreatePurchaseRequestSchema,
  ResolveWalletRequestSchema,
  type Validator,
} from '@starsgate/domain';
import { classifySeed, isResolutionCached, type Network, type WalletSelection } from '@starsgate/ton';
import { redisRateLimit } from './rate-limit';
import { ReservedBudget } from './reserved-budget';

export interface ExpensiveRouteLimits {
  /** Per client and window (RATE_LIMIT_WINDOW_SECONDS): `POST /wallets/resolve` (chain reads on the operator's key). */
  walletResolvePerClient: number;
  /** Per client: `POST /availability/check` (the Fragment read budget). */
  availabilityPerClient: number;
  /** Per client: `POST /checkouts` (chain reads to identify the payer). */
  checkoutPerClient: number;
  /** Per client: requests carrying a new mnemonic (valid or not), each a PBKDF2 derivation when valid (100 000 rounds for a TON 24-word seed). */
  mnemonicPerClient: number;
  /** Mnemonic derivations per minute for all clients and replicas together; only valid mnemonics are charged. */
  keyDerivationsPerMinute: number;
  /** Of those, how many only purchases may use: wallet resolution stops short of them. */
  keyDerivationsReservedForPurchases: number;
}

const MNEMONIC = /\S\s+\S/;

/** A seed phrase this gateway has not resolved lately: resolving it may cost a PBKDF2 derivation. */
function carriesNewMnemonic(body: unknown, network: Network): body is WalletSelection {
  const selection = body as Record<keyof WalletSelection, unknown> | null;
  if (typeof selection?.seed !== 'string' || !MNEMONIC.test(selection.seed.trim())) return false;
  // This runs before validation: a selection of the wrong shape derives nothing (it is refused with a 400).
  if (!['string', 'undefined'].includes(typeof selection.wallet_address)) return false;
  if (selection.account_index !== undefined && !Number.isInteger(selection.account_index)) return false;
  return !isResolutionCached(selection as WalletSelection, network);
}

const ROUTE_VALIDATORS: Record<string, Validator<unknown>> = {
  '/api/v1/purchases': createValidator(CreatePurchaseRequestSchema),
  '/api/v1/wallets/resolve': createValidator(ResolveWalletRequestSchema),
};

/**
 * Whether the route will derive this request's seed: its body passes the route's schema and the
 * seed is a valid mnemonic (BIP39 word list and checksum for 12 words, a TON seed for 24; at most a
 * 390-round PBKDF2, a 256th of a derivation), with what a 12-word seed needs to pick its account.
 * Anything else is refused with a 400 before any derivation, so it is charged nothing
 * (docs/security.md, attack 20).
 */
async function derivesKey(path: string, selection: WalletSelection): Promise<boolean> {
  try {
    ROUTE_VALIDATORS[path]!(selection);
    const format = await classifySeed(selection.seed);
    return format !== 'bip39_12' || selection.account_index !== undefined || selection.wallet_address !== undefined;
  } catch {
    return false;
  }
}

type Limiter = (req: Request, res: Response, next: NextFunction) => void;

/** Runs a limiter; true when it let the request through, false when it answered (429). */
function run(limiter: Limiter, req: Request, res: Response): Promise<boolean> {
  return new Promise((resolve, reject) => {
    res.once('finish', () => resolve(false));
    limiter(req, res, (error?: unknown) => {
      if (error === undefined || error === null) resolve(true);
      else reject(error instanceof Error ? error : new Error('the rate limiter failed', { cause: error }));
    });
  });
}

/**
 * The anonymous routes that spend something shared (docs/security.md, attack 6): each gets its own
 * lower per-client limit beside the general one, and mnemonic derivations draw on a global budget
 * whose reserve only purchases may use, so a flood of wallet resolutions with new seeds cannot
 * take the CPU purchases need. Runs after the body is parsed (a mnemonic is seen in the body).
 */
export function expensiveRouteLimits(options: {
  redis: Redis;
  prefix: string;
  network: Network;
  windowSeconds: number;
  limits: ExpensiveRouteLimits;
}) {
  const limiter = (name: string, max: number): Limiter =>
    redisRateLimit({
      redis: options.redis,
      windowSeconds: options.windowSeconds,
      max,
      prefix: `${options.prefix}${name}:`,
    });
  const byRoute: Record<string, Limiter> = {
    '/api/v1/wallets/resolve': limiter('wallets', options.limits.walletResolvePerClient),
    '/api/v1/availability/check': limiter('availability', options.limits.availabilityPerClient),
    '/api/v1/checkouts': limiter('checkouts', options.limits.checkoutPerClient),
    // Each payload is a Redis key kept for TON_PROOF_TTL_SECONDS: as many per client as checkouts.
    '/api/v1/checkouts/ton-proof-payload': limiter('ton-proof-payloads', options.limits.checkoutPerClient),
  };
  const mnemonics = limiter('mnemonics', options.limits.mnemonicPerClient);
  const derivations = new ReservedBudget({
    redis: options.redis,
    key: `${options.prefix}key-derivations`,
    max: options.limits.keyDerivationsPerMinute,
    reserved: options.limits.keyDerivationsReservedForPurchases,
    windowMs: 60_000,
  });

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST') return next();
    // Express routes match case-insensitively and with a trailing slash: so does this.
    const path = req.path.toLowerCase().replace(/\/+$/, '');
    const route = byRoute[path];
    if (route && !(await run(route, req, res))) return;
    const isPurchase = path === '/api/v1/purchases';
    if ((isPurchase || path === '/api/v1/wallets/resolve') && carriesNewMnemonic(req.body, options.network)) {
      // Per client first: it also bounds what checking the mnemonic costs.
      if (!(await run(mnemonics, req, res))) return;
      if (!(await derivesKey(path, req.body))) return next();
      const budget = await derivations.take(isPurchase);
      if (!budget.taken)
        throw new AppError('RATE_LIMITED', {
          message: 'Too many seed phrases to derive right now.',
          details: [{ field: 'seed', message: 'the budget of key derivations is spent for now' }],
          retryAfterSeconds: budget.retryAfterSeconds,
        });
    }
    next();
  };
}
