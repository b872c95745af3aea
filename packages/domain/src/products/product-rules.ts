/** Product and payment rules from the spec's limits table. */
export const PRODUCTS = ['stars', 'premium'] as const;
export type Product = (typeof PRODUCTS)[number];

export const STARS_MIN = 50;
export const STARS_MAX = 1_000_000;
export const PREMIUM_MONTHS = [3, 6, 12] as const;
export type PremiumMonths = (typeof PREMIUM_MONTHS)[number];

export const PAYMENT_METHODS = ['gram', 'usdt'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * Accepted spellings of a payment method. `ton`/`usdt_ton` are Fragment's wire names and
 * `usdt_gram` the post-rename library spelling; all are stored in their canonical form.
 */
export const PAYMENT_METHOD_ALIASES: Readonly<Record<string, PaymentMethod>> = {
  gram: 'gram',
  ton: 'gram',
  usdt: 'usdt',
  usdt_ton: 'usdt',
  usdt_gram: 'usdt',
};

export function normalizePaymentMethod(value: string): PaymentMethod | undefined {
  return Object.prototype.hasOwnProperty.call(PAYMENT_METHOD_ALIASES, value)
    ? PAYMENT_METHOD_ALIASES[value]
    : undefined;
}

export function isValidAmount(product: Product, amount: number): boolean {
  if (!Number.isInteger(amount)) return false;
  if (product === 'stars') return amount >= STARS_MIN && amount <= STARS_MAX;
  return (PREMIUM_MONTHS as readonly number[]).includes(amount);
}

export const USERNAME_PATTERN = '^@[A-Za-z0-9_]{1,32}$';
/** 1 to 128 printable ASCII characters (0x20 to 0x7E). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x20-\\x7E]{1,128}$';
export const ACCOUNT_INDEX_MIN = 0;
export const ACCOUNT_INDEX_MAX = 100;

/** Telegram usernames are case-insensitive: compare them lower-cased. */
export function canonicalUsername(username: string): string {
  return username.toLowerCase();
}
