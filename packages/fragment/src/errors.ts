/**
 * The one error type of the Fragment adapter; what each kind means is `error-kinds.ts`
 * (docs/fragment-protocol.md §11). Callers switch on `kind`; `retryable` says whether the same call may be
 * made again later, `outcomeUnknown` whether a non-idempotent call (init, confirm) may have been
 * executed by Fragment although no answer arrived (docs/purchase-safety.md, Unknown outcomes: look it up, never
 * resend blindly).
 */
import { FRAGMENT_ERROR_KINDS, type FragmentErrorKind } from './error-kinds';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';
import { unescapeHtml } from './html-parsing';

export type { FragmentErrorKind } from './error-kinds';

export interface FragmentErrorOptions {
  /** Fragment's own text (unescaped), when it gave one. */
  upstreamText?: string;
  /** The API method or page the error came from, e.g. a pack's `init…Request`, `GET <its page>`. */
  method?: string;
  httpStatus?: number;
  /** RATE_LIMITED: the server's Retry-After, in milliseconds. */
  retryAfterMs?: number;
  /** UPSTREAM_UNAVAILABLE: the call hit the client timeout. */
  timedOut?: boolean;
  /**
   * The request may have reached Fragment and been executed, but no definitive answer came
   * (timeout, connection lost after sending, 5xx, non-JSON 200). For init/confirm this means the
   * outcome is UNKNOWN. False whenever the request provably was not executed (429, Cloudflare
   * challenge, connection refused, any JSON business error).
   */
  outcomeUnknown?: boolean;
  /** CLOUDFLARE: whether Cloudflare showed a challenge or a block page (error 1020). */
  cloudflare?: 'challenge' | 'block';
  /** VERIFICATION_REQUIRED: the popup text Fragment wanted to show (tags stripped). */
  popup?: string;
  cause?: unknown;
}

export class FragmentError extends Error {
  readonly kind: FragmentErrorKind;
  readonly retryable: boolean;
  readonly upstreamText: string | undefined;
  readonly method: string | undefined;
  readonly httpStatus: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly timedOut: boolean;
  readonly outcomeUnknown: boolean;
  readonly popup: string | undefined;
  readonly cloudflare: 'challenge' | 'block' | undefined;

  constructor(kind: FragmentErrorKind, message: string, options: FragmentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FragmentError';
    this.kind = kind;
    this.retryable = FRAGMENT_ERROR_KINDS[kind].retryable;
    this.upstreamText = options.upstreamText;
    this.method = options.method;
    this.httpStatus = options.httpStatus;
    this.retryAfterMs = options.retryAfterMs;
    this.timedOut = options.timedOut ?? false;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
    this.popup = options.popup;
    this.cloudflare = options.cloudflare;
  }
}

export function isFragmentError(error: unknown, kind?: FragmentErrorKind): error is FragmentError {
  return error instanceof FragmentError && (kind === undefined || error.kind === kind);
}

/**
 * The text table of docs/fragment-protocol.md §11. Matching is on the unescaped, whitespace-normalised text, case-insensitive,
 * by fragment of sentence (Fragment's wording around the key phrase has varied).
 */
const RECIPIENT_TEXT_RULES: ReadonlyArray<{ pattern: RegExp; kind: FragmentErrorKind }> = [
  { pattern: /no telegram (users|channels|accounts) found/i, kind: 'RECIPIENT_NOT_FOUND' },
  { pattern: /enter a username assigned to a user/i, kind: 'RECIPIENT_INELIGIBLE' },
];

type TextRule = { pattern: RegExp; kind: FragmentErrorKind };

const rulesByMethod = new Map<string, readonly TextRule[]>();

/** The API methods a product pack calls itself (its error texts are read first for them). */
function packMethods(product: (typeof FRAGMENT_PRODUCT_NAMES)[number]): string[] {
  const pack = fragmentPack(product);
  const prices = pack.prices;
  return [
    pack.search,
    pack.updateState,
    pack.init,
    pack.link,
    ...(prices.kind === 'update_prices' || prices.kind === 'update_options' ? [prices.method] : []),
  ];
}

/**
 * The texts of the product whose method answered, then the recipient texts, then every product
 * pack's texts for any method (each pack's `errorTexts`), then the shared ones. Built on first use: the packs import modules that import
 * this one.
 */
function textRules(method = ''): readonly TextRule[] {
  let rules = rulesByMethod.get(method);
  if (!rules) {
    const own = FRAGMENT_PRODUCT_NAMES.filter((product) => packMethods(product).includes(method));
    rules = [
      ...own.flatMap((product) => fragmentPack(product).errorTexts),
      ...RECIPIENT_TEXT_RULES,
      ...FRAGMENT_PRODUCT_NAMES.flatMap((product) =>
        fragmentPack(product).errorTexts.filter((rule) => !rule.ownMethodsOnly),
      ),
      ...SHARED_TEXT_RULES,
    ];
    rulesByMethod.set(method, rules);
  }
  return rules;
}

const SHARED_TEXT_RULES: ReadonlyArray<{ pattern: RegExp; kind: FragmentErrorKind }> = [
  { pattern: /price (was|has been) changed/i, kind: 'PRICE_CHANGED' },
  { pattern: /access denied/i, kind: 'SESSION_INVALID' },
  // Checked by some clients, never captured from Fragment [1]; harmless to recognise.
  {
    pattern: /session expired|auth_session_expired|unauthori[sz]ed|wallet (is )?not connected|please log ?in/i,
    kind: 'SESSION_INVALID',
  },
  { pattern: /payment method/i, kind: 'PAYMENT_METHOD_UNAVAILABLE' },
  // docs/fragment-protocol.md §19.4: a PHP client treats these as a rate limit [1]; nothing was executed.
  { pattern: /too many requests|flood/i, kind: 'RATE_LIMITED' },
  // A method Fragment does not know (renamed or retired): protocol drift, not a refusal of the order [1].
  { pattern: /^invalid method\b/i, kind: 'UNEXPECTED_RESPONSE' },
  // The order is gone from Fragment's side (expired, or its req_id unknown): restart if unpaid.
  { pattern: /expired|no longer (valid|available)|request not found/i, kind: 'ORDER_EXPIRED' },
  // A text that itself asks for a later retry is transient, not a refusal: a JSON `error` proves
  // nothing was executed, so the same call may be made again (found by `npm run chaos`: one such
  // answer during search, init or link failed 4 % of the purchases for good).
  {
    pattern: /try again later|internal (server )?error|temporarily unavailable|service unavailable/i,
    kind: 'UPSTREAM_UNAVAILABLE',
  },
];

/** Kind for one free-text `error` of a JSON answer. Unknown texts are UPSTREAM_REJECTED. */
export function classifyErrorText(text: string, method?: string): FragmentErrorKind {
  const normalised = unescapeHtml(text).replace(/\s+/g, ' ').trim();
  for (const rule of textRules(method)) {
    if (rule.pattern.test(normalised)) return rule.kind;
  }
  return 'UPSTREAM_REJECTED';
}

/** A FragmentError for a JSON `error` field; keeps Fragment's text (unescaped). */
export function errorFromText(text: string, method: string): FragmentError {
  const clean = unescapeHtml(text).replace(/\s+/g, ' ').trim();
  const kind = classifyErrorText(clean, method);
  return new FragmentError(kind, `Fragment ${method}: ${clean}`, { upstreamText: clean, method });
}
