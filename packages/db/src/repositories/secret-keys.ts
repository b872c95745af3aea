import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { walletSecrets, webhookEndpoints } from '../schema';
import type { SecretVault } from '../secrets/secret-vault';
import { WebhookEndpoints } from './webhook-endpoints';

export interface KeyUsage {
  /** Live wallet secrets (not yet wiped) per key id. */
  walletSecrets: Record<string, number>;
  /** Stored webhook signing secrets per key id, deleted endpoints included (their rows still hold them). */
  webhookSecrets: Record<string, number>;
}

/**
 * What each key id still opens. A key can leave `STARSGATE_SECRET_KEY` when it has no row in either
 * count; wiped wallet secrets keep their `key_id` but hold nothing, so they are not counted.
 */
export async function keyUsage(db: Database): Promise<KeyUsage> {
  const wallets = await db
    .select({ keyId: walletSecrets.keyId, count: sql<number>`count(*)::int` })
    .from(walletSecrets)
    .where(isNotNull(walletSecrets.wrappedKey))
    .groupBy(walletSecrets.keyId);
  const webhooks = await db.execute<{ key_id: string; count: number }>(
    sql`SELECT s->>'key_id' AS key_id, count(*)::int AS count
        FROM ${webhookEndpoints}, jsonb_array_elements(${webhookEndpoints.signingSecrets}) AS s
        GROUP BY 1`,
  );
  return {
    walletSecrets: Object.fromEntries(wallets.map((row) => [row.keyId, row.count])),
    webhookSecrets: Object.fromEntries(webhooks.rows.map((row) => [row.key_id, row.count])),
  };
}

/** Re-wraps one live wallet secret to the primary key, row-locked; false if it was wiped or moved meanwhile. */
async function rewrapWalletSecret(db: Database, vault: SecretVault, purchaseId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(walletSecrets)
      .where(and(eq(walletSecrets.purchaseId, purchaseId), isNotNull(walletSecrets.wrappedKey)))
      .for('update');
    if (!row || !row.wrappedKey || !row.ciphertext || row.keyId === vault.primaryKeyId) return false;
    const rewrapped = vault.rewrap(purchaseId, {
      keyId: row.keyId,
      wrappedKey: row.wrappedKey,
      ciphertext: row.ciphertext,
    });
    await tx
      .update(walletSecrets)
      .set({ keyId: rewrapped.keyId, wrappedKey: rewrapped.wrappedKey })
      .where(eq(walletSecrets.purchaseId, purchaseId));
    return true;
  });
}

/**
 * Key rotation: every live wallet secret and every webhook signing secret re-wrapped to the ring's
 * primary key. Safe beside running workers (each row is locked while it moves; the ciphertext and
 * so the secret do not change) and safe to run again.
 */
export async function rewrapAllSecrets(
  db: Database,
  vault: SecretVault,
): Promise<{ walletSecrets: number; webhookSecrets: number }> {
  const stale = await db
    .select({ purchaseId: walletSecrets.purchaseId })
    .from(walletSecrets)
    .where(and(isNotNull(walletSecrets.wrappedKey), ne(walletSecrets.keyId, vault.primaryKeyId)));
  let wallets = 0;
  for (const { purchaseId } of stale) if (await rewrapWalletSecret(db, vault, purchaseId)) wallets++;
  const webhooks = await new WebhookEndpoints(db, vault, vault).rewrapSecrets();
  return { walletSecrets: wallets, webhookSecrets: webhooks };
}
