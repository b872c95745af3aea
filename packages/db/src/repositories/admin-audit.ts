import { desc, eq } from 'drizzle-orm';
import type { Database } from '../database';
import { adminActions, type AdminActionRow, type NewAdminActionRow } from '../schema';

/**
 * One operator action to record, without its target (the change knows it: a new endpoint's id).
 * `actor` is the authenticated identity (`token:<token_id>`), `operator` the caller's label.
 */
export type AdminActionRecord = Omit<NewAdminActionRow, 'id' | 'createdAt' | 'targetId'>;

/** Anything that inserts: the database or a transaction the change runs in. */
type Inserter = Pick<Database, 'insert'>;

/** Writes `record` about `targetId` with `executor`: pass the change's transaction so both commit or neither. */
export async function insertAdminAction(
  executor: Inserter,
  record: AdminActionRecord,
  targetId: string,
): Promise<void> {
  await executor.insert(adminActions).values({ ...record, targetId });
}

/** The operator actions' audit trail (admin_actions). */
export class AdminAudit {
  constructor(private readonly db: Database) {}

  /** An action that changes nothing in PostgreSQL (a Bull Board change in Redis), recorded before it runs. */
  async record(action: Omit<NewAdminActionRow, 'id' | 'createdAt'>): Promise<void> {
    await this.db.insert(adminActions).values(action);
  }

  async forTarget(targetId: string): Promise<AdminActionRow[]> {
    return this.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.targetId, targetId))
      .orderBy(desc(adminActions.id));
  }
}
