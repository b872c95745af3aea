import type { PurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import { fromDriverRow } from './driver-rows';

/** A claimed row, with its sealed wallet secret when the claim read it. */
export interface ClaimedPurchase {
  claimed: true;
  row: PurchaseRow;
  /** Read with claims of `preparing` purchases (the steps that derive keys and sign); null otherwise or once destroyed. */
  sealedSecret: SealedSecret | null;
}

/** A claim that failed: the row as the claim found it (held, not due, or terminal). */
export interface RefusedClaim {
  claimed: false;
  row: PurchaseRow;
}

/** A claimed row and the sealed secret columns the claim read with it (`SEALED_SECRET_COLUMNS`). */
export function claimedFromRaw(raw: Record<string, unknown>): ClaimedPurchase {
  const wrappedKey = raw.sealed_wrapped_key as Buffer | null;
  const ciphertext = raw.sealed_ciphertext as Buffer | null;
  return {
    claimed: true,
    row: fromDriverRow(raw),
    sealedSecret: wrappedKey && ciphertext ? { keyId: raw.sealed_key_id as string, wrappedKey, ciphertext } : null,
  };
}
