/**
 * The error kinds products add to the shared ones (error-kinds.ts), one line per product that has
 * any. Its own module, importing only the packs' kinds: the error table reads it while it loads.
 */
import { premiumErrorKinds } from './premium';

export const PRODUCT_ERROR_KINDS = { ...premiumErrorKinds } as const;

export type ProductErrorKind = keyof typeof PRODUCT_ERROR_KINDS;
