export const PAYMENT_METHODS = ['gram', 'usdt'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** How people name the currencies. */
export const PAYMENT_METHOD_NAMES = { gram: 'GRAM', usdt: 'USDT' } as const satisfies Record<PaymentMethod, string>;

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
