/** The sealed wallet secret read along with a claimed purchase (`wallet_secrets` aliased `s`). */
export const SEALED_SECRET_COLUMNS =
  's.key_id AS sealed_key_id, s.wrapped_key AS sealed_wrapped_key, s.ciphertext AS sealed_ciphertext';
