import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { webhookEndpoints, type WebhookEndpointRow } from '../schema';
import type { SecretSealing } from '../secrets/secret-sealer';
import { SecretVault } from '../secrets/secret-vault';
import { insertAdminAction, type AdminActionRecord } from './admin-audit';

/** A rotated-out secret keeps signing beside the new one for this long. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** One sealed signing secret as stored in `signing_secrets` (newest first). */
interface StoredSecret {
  id: string;
  key_id: string;
  wrapped_key: string;
  ciphertext: string;
  /** The last characters, to tell secrets apart in listings. */
  hint: string;
  /** Null: current. Otherwise the end of its overlap after a rotation. */
  expires_at: string | null;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  /** Null: every event type. */
  events: string[] | null;
  createdAt: Date;
  /** Masked hints of the valid secrets, newest first, with when each stops signing (null: current). */
  secrets: Array<{ hint: string; expiresAt: Date | null }>;
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function storedSecrets(row: WebhookEndpointRow): StoredSecret[] {
  return row.signingSecrets as StoredSecret[];
}

function validAt(secret: StoredSecret, now: number): boolean {
  return secret.expires_at === null || Date.parse(secret.expires_at) > now;
}

function toEndpoint(row: WebhookEndpointRow, now = Date.now()): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    createdAt: row.createdAt,
    secrets: storedSecrets(row)
      .filter((secret) => validAt(secret, now))
      .map((secret) => ({
        hint: secret.hint,
        expiresAt: secret.expires_at === null ? null : new Date(secret.expires_at),
      })),
  };
}

/**
 * Webhook endpoints and their signing secrets, sealed with the secret vault like wallet secrets
 * (the endpoint and the secret's id are authenticated data). A secret in clear text leaves only
 * through `create` and `rotateSecret` (to be shown once) and `signingSecrets` (to sign).
 */
export class WebhookEndpoints {
  /**
   * `sealer` seals new secrets (the gateway's public-key sealer is enough); `vault` opens them to
   * sign and re-wraps them, so only the worker and `starsgate keys` pass one.
   */
  private readonly vault: SecretVault | undefined;

  constructor(
    private readonly db: Database,
    private readonly sealer: SecretSealing,
    vault?: SecretVault,
  ) {
    this.vault = vault ?? (sealer instanceof SecretVault ? sealer : undefined);
  }

  private opener(): SecretVault {
    if (!this.vault) throw new Error('webhook signing secrets can only be opened with the worker key ring');
    return this.vault;
  }

  private seal(endpointId: string, secret: string, expiresAt: Date | null): StoredSecret {
    const id = randomUUID();
    const sealed = this.sealer.seal(`webhook:${endpointId}:${id}`, secret);
    return {
      id,
      key_id: sealed.keyId,
      wrapped_key: sealed.wrappedKey.toString('base64'),
      ciphertext: sealed.ciphertext.toString('base64'),
      hint: `whsec_…${secret.slice(-4)}`,
      expires_at: expiresAt?.toISOString() ?? null,
    };
  }

  /** `audit`: the operator's action, recorded in the same transaction (no endpoint without its record). */
  async create(
    input: {
      url: string;
      description?: string;
      events?: string[];
    },
    audit?: AdminActionRecord,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const id = randomUUID();
    const secret = newSecret();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(webhookEndpoints)
        .values({
          id,
          url: input.url,
          description: input.description ?? null,
          events: input.events ?? null,
          signingSecrets: [this.seal(id, secret, null)],
        })
        .returning();
      if (audit) await insertAdminAction(tx, audit, id);
      return { endpoint: toEndpoint(row!), secret };
    });
  }

  async list(): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(isNull(webhookEndpoints.deletedAt))
      .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    return rows.map((row) => toEndpoint(row));
  }

  async find(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.findRow(id);
    return row ? toEndpoint(row) : undefined;
  }

  private async findRow(id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)));
    return row;
  }

  /** Soft delete: its pending deliveries stop (the delivery worker skips deleted endpoints). `audit` as in `create`. */
  async remove(id: string, audit?: AdminActionRecord): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(webhookEndpoints)
        .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
        .returning({ id: webhookEndpoints.id });
      if (rows.length !== 1) return false;
      if (audit) await insertAdminAction(tx, audit, id);
      return true;
    });
  }

  /**
   * A new current secret; the previous current one signs beside it until the overlap ends, and
   * secrets whose overlap already ended are dropped. Locked, so concurrent rotations serialize.
   * `audit` as in `create`.
   */
  async rotateSecret(
    id: string,
    audit?: AdminActionRecord,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string } | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.deletedAt)))
        .for('update');
      if (!row) return undefined;
      const now = Date.now();
      const overlapEnd = new Date(now + WEBHOOK_SECRET_OVERLAP_MS).toISOString();
      const kept = storedSecrets(row)
        .filter((secret) => validAt(secret, now))
        .map((secret) => ({ ...secret, expires_at: secret.expires_at ?? overlapEnd }));
      const secret = newSecret();
      const [updated] = await tx
        .update(webhookEndpoints)
        .set({ signingSecrets: [this.seal(id, secret, null), ...kept], updatedAt: sql`now()` })
        .where(eq(webhookEndpoints.id, id))
        .returning();
      if (audit) await insertAdminAction(tx, audit, id);
      return { endpoint: toEndpoint(updated!, now), secret };
    });
  }

  /** The secrets that sign a delivery now, current first (empty for a deleted endpoint). */
  async signingSecrets(id: string, now = Date.now()): Promise<string[]> {
    const row = await this.findRow(id);
    if (!row) return [];
    return storedSecrets(row)
      .filter((secret) => validAt(secret, now))
      .map((secret) => {
        const bytes = this.opener().open(`webhook:${id}:${secret.id}`, {
          keyId: secret.key_id,
          wrappedKey: Buffer.from(secret.wrapped_key, 'base64'),
          ciphertext: Buffer.from(secret.ciphertext, 'base64'),
        });
        try {
          return bytes.toString('utf8');
        } finally {
          bytes.fill(0);
        }
      });
  }

  /**
   * Key rotation: every stored secret of every endpoint (deleted ones too: their rows still hold
   * ciphertext) re-wrapped to the primary key, one locked row at a time. Returns how many moved.
   */
  async rewrapSecrets(): Promise<number> {
    const vault = this.opener();
    const candidates = await this.db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${webhookEndpoints.signingSecrets}) AS s WHERE s->>'key_id' <> ${vault.primaryKeyId})`,
      );
    let moved = 0;
    for (const { id } of candidates) {
      moved += await this.db.transaction(async (tx) => {
        const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('update');
        if (!row) return 0;
        let count = 0;
        const secrets = storedSecrets(row).map((secret) => {
          if (secret.key_id === vault.primaryKeyId) return secret;
          const rewrapped = vault.rewrap(`webhook:${id}:${secret.id}`, {
            keyId: secret.key_id,
            wrappedKey: Buffer.from(secret.wrapped_key, 'base64'),
            ciphertext: Buffer.from(secret.ciphertext, 'base64'),
          });
          count++;
          return { ...secret, key_id: rewrapped.keyId, wrapped_key: rewrapped.wrappedKey.toString('base64') };
        });
        if (count > 0)
          await tx.update(webhookEndpoints).set({ signingSecrets: secrets }).where(eq(webhookEndpoints.id, id));
        return count;
      });
    }
    return moved;
  }
}
