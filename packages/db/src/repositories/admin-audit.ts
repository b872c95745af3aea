import { desc, eq } from 'drizzle-orm';
import type { Database } from '../database';
import { adminActions, type AdminActionRow, type NewAdminActionRow } from '../schema';

/** The operator actions' audit trail (admin_actions). */
export class AdminAudit {
  constructor(private readonly db: Database) {}

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
