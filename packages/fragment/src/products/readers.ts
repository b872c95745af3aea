/** Each product pack's own readers (history quantities, comments, page limits), exported by the package. */
export { parseStarsLimits, parseStarsQuantity, readStarsComment } from './stars';
export { parsePremiumDuration, readPremiumComment } from './premium';
export { parseTopupAmount, readTopupComment } from './gram';
export { parseGiveawayWinners, readGiveawayComment } from './premium-giveaway';
/** A product's quantity type the package's callers name. */
export type { PremiumMonths } from '@starsgate/domain';
