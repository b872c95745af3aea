import { createHash } from 'node:crypto';
import { getTableColumns } from 'drizzle-orm';
import { purchases, type PurchaseRow } from '../schema';
import { acquireLeaseSql } from './acquire-lease';
import type { NamedStatement } from './named-statement';
import { TERMINAL_STATUS_LIST } from './domain-lists';
import { CLIENT_VISIBLE_CHANGES, WORKED_NOW } from './visible-change';

const COLUMNS = getTableColumns(purchases);

export interface FencedUpdateShape {
  /** The purchase columns the statement sets, by their TypeScript names, in parameter order. */
  keys: ReadonlyArray<keyof PurchaseRow>;
  release: boolean;
  /** Merge a jsonb object into each row's `evidence` (its own keys kept) instead of setting it. */
  mergeEvidence: boolean;
  /** One fence (`id = $1 …`) or several (`unnest` of the fence arrays). */
  many: boolean;
  /**
   * Enter the wallet's sender (PurchaseTransitions.enterWalletSender): take the wallet lease
   * named by the parameters after the keys if it is free, and keep the row held; else release
   * the row, due at the last parameter. Answers `wallet_lease_fence` (NULL: not taken).
   */
  enterWalletSender?: boolean;
  /**
   * Fence a row nobody holds (lease empty or expired) on its version alone: an operator's or the
   * evidence collector's write to a settled case. The fence's owner is then only the event's actor.
   */
  unheld?: boolean;
}

export type FencedUpdateStatement = NamedStatement;

const statements = new Map<string, FencedUpdateStatement>();

/**
 * The SQL of a fenced transition (PurchaseTransitions.applyMany), built once per shape and kept
 * as a named prepared statement: the hottest write of the worker skips query building and
 * PostgreSQL's parse and plan. Parameters: $1 ids, $2 versions, $3 owners, $7 event data (jsonb;
 * all four arrays, one entry per row, when `many`), $4 from-status, $5 to-status, $6 reason
 * (NULL: no event), $8 actor
 * (NULL: the fence's owner), then the evidence to merge (when `mergeEvidence`), then one per key,
 * then (when `enterWalletSender`) the wallet lease's name, its owner, its ttl in ms, and when the
 * row is due if it parks.
 */
export function fencedUpdateStatement(shape: FencedUpdateShape): FencedUpdateStatement {
  const signature = `${shape.many ? 'many' : 'one'}|${shape.release ? 'release' : 'keep'}|${shape.mergeEvidence ? 'merge' : 'set'}|${shape.enterWalletSender ? 'sender' : ''}|${shape.unheld ? 'unheld' : 'held'}|${shape.keys.join(',')}`;
  const cached = statements.get(signature);
  if (cached) return cached;
  if (shape.mergeEvidence && shape.keys.includes('evidence'))
    throw new TypeError('evidence is either set or merged, not both');
  const firstKey = shape.mergeEvidence ? 10 : 9;
  const assignments = shape.keys.map((key, index) => `${COLUMNS[key].name} = $${index + firstKey}`);
  if (shape.mergeEvidence) assignments.push(`evidence = coalesce(p.evidence, '{}'::jsonb) || $9::jsonb`);
  if (shape.release && shape.enterWalletSender)
    throw new TypeError('a purchase entering its wallet sender is released only if it parks');
  if (shape.release) assignments.push('lease_owner = NULL', 'lease_expires_at = NULL');
  const leaseParameter = firstKey + shape.keys.length;
  if (shape.enterWalletSender) {
    const taken = 'EXISTS (SELECT 1 FROM wallet_lease)';
    assignments.push(
      `lease_owner = CASE WHEN ${taken} THEN p.lease_owner END`,
      `lease_expires_at = CASE WHEN ${taken} THEN p.lease_expires_at END`,
      `next_run_at = CASE WHEN ${taken} THEN p.next_run_at ELSE $${leaseParameter + 3}::timestamptz END`,
    );
  }
  // updated_at moves only if a column the client sees takes a new value (old values on the right).
  const visible = shape.keys.flatMap((key, index) =>
    (CLIENT_VISIBLE_CHANGES as ReadonlyArray<keyof PurchaseRow>).includes(key)
      ? [`p.${COLUMNS[key].name} IS DISTINCT FROM $${index + firstKey}`]
      : [],
  );
  if (visible.length > 0)
    assignments.push(`updated_at = CASE WHEN ${visible.join(' OR ')} THEN now() ELSE p.updated_at END`);
  assignments.push('version = p.version + 1', WORKED_NOW);
  const fence = shape.many
    ? `fence AS (SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $7::jsonb[]) AS f(id, version, owner, event_data)),`
    : `fence AS (SELECT $1::uuid AS id, $2::int AS version, $3::text AS owner, $7::jsonb AS event_data),`;
  // Takes the lease row's lock even when it is not free: a holder freeing the wallet meanwhile
  // waits for this statement, so its wake-up, sent after, finds this row parked; a release
  // committed first leaves the lease free to take.
  const walletLease = shape.enterWalletSender
    ? `wallet_lease AS (
      ${acquireLeaseSql(`$${leaseParameter}`, `$${leaseParameter + 1}`, `$${leaseParameter + 2}`)}
    ),`
    : '';
  const text = `
    WITH ${walletLease}${fence}
    updated AS (
      UPDATE purchases p SET ${assignments.join(', ')}
      FROM fence WHERE p.id = fence.id AND p.version = fence.version AND ${
        shape.unheld ? '(p.lease_owner IS NULL OR p.lease_expires_at < now())' : 'p.lease_owner = fence.owner'
      }
      RETURNING p.*, fence.owner AS fence_owner, fence.event_data AS fence_event_data
    ),
    event AS (
      INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
      SELECT id, $4::text, coalesce($5::text, status), version, coalesce($8::text, fence_owner), $6::text, fence_event_data
      FROM updated WHERE $6::text IS NOT NULL
    ),
    destroyed AS (
      UPDATE wallet_secrets SET ciphertext = NULL, wrapped_key = NULL, destroyed_at = now()
      WHERE purchase_id IN (SELECT id FROM updated WHERE status IN ${TERMINAL_STATUS_LIST}) AND destroyed_at IS NULL
    )
    ${
      shape.enterWalletSender
        ? `SELECT (SELECT fence FROM wallet_lease) AS wallet_lease_fence, updated.* FROM (SELECT 1) AS one LEFT JOIN updated ON true`
        : `SELECT * FROM updated`
    }`;
  const statement = {
    name: `fenced_update_${createHash('sha256').update(signature).digest('hex').slice(0, 16)}`,
    text,
  };
  statements.set(signature, statement);
  return statement;
}

/** A change value as the driver takes it (jsonb as JSON text, timestamps as ISO strings, bigint as text). */
export function driverValue(key: keyof PurchaseRow, value: unknown): unknown {
  return value === null || value === undefined ? null : COLUMNS[key].mapToDriverValue(value);
}
