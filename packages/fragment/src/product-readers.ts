/**
 * How each product's quantity reads in Fragment's texts: the order comment before ` \n\nRef#…`
 * (docs/fragment-protocol.md §6) and a history row's quantity cell. `routes.ts` names one of each
 * per product.
 */
import { fragmentInteger } from './amounts';

/** `1,000` / `1 000` / `50` / `1,000 Stars` → 1000 (amounts.ts reads the number). */
export function parseStarsQuantity(text: string): number | undefined {
  const bare = text.replace(/\s*(?:telegram\s+)?stars?\b|⭐️?|\u2b50\ufe0f?/gi, '').trim();
  const value = fragmentInteger(bare);
  return value !== undefined && value > 0 ? value : undefined;
}

/** `3 months` → 3, `1 year` / `a year` / `12 months` → 12. */
export function parsePremiumDuration(text: string): number | undefined {
  const months = /^(\d{1,2})\s*(?:months?|mo\.?)$/i.exec(text.trim());
  if (months) return Number(months[1]);
  const years = /^(\d|one|a)\s*years?$/i.exec(text.trim());
  if (years) return 12 * (/^\d$/.test(years[1]!) ? Number(years[1]) : 1);
  return undefined;
}

/** `1,000` / `25 TON` / `25 GRAM` → the whole GRAM of a top-up row (its `.icon-ton` cell). */
export function parseTopupAmount(text: string): number | undefined {
  const value = fragmentInteger(text.replace(/\s*(?:TON|GRAM)\b/gi, '').trim());
  return value !== undefined && value > 0 ? value : undefined;
}

/** What a comment's text says about the order: undefined when it is not this product's comment. */
export type CommentReader = (what: string) => { quantity?: number } | undefined;

const PREMIUM_MONTHS: Record<string, number> = { '3 months': 3, '6 months': 6, '1 year': 12 };

/** `50 Telegram Stars`. */
export const readStarsComment: CommentReader = (what) => {
  const match = /^(\d+) Telegram Stars$/.exec(what);
  if (!match) return undefined;
  const quantity = Number(match[1]);
  return Number.isSafeInteger(quantity) ? { quantity } : undefined;
};

/** `Telegram Premium for 3 months`, `… for 1 year`. */
export const readPremiumComment: CommentReader = (what) => {
  const match = /^Telegram Premium for (3 months|6 months|1 year)$/.exec(what);
  return match ? { quantity: PREMIUM_MONTHS[match[1] ?? ''] ?? 0 } : undefined;
};

/** `Telegram account top up`: the comment names no amount (the payment's value is the amount). */
export const readTopupComment: CommentReader = (what) => (what === 'Telegram account top up' ? {} : undefined);
