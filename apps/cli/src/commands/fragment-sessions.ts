import type { AdminClient } from '../admin-client';
import { table } from '../output';
import type { CommandResult } from './command';

interface FragmentSession {
  session_id: string;
  account_id: string;
  state: 'alive' | 'dead';
  since: string;
  reason: string | null;
  wallet_address: string | null;
  last_order_at: string | null;
}

/** `starsgate fragment sessions`: each Fragment login, alive or dead since when (docs/fragment-protocol.md §20.3). */
export async function listFragmentSessions(client: AdminClient): Promise<CommandResult> {
  const answer = await client.call<{ data: FragmentSession[] }>('GET', '/admin/api/fragment-sessions');
  const rows = answer.data.map((login) => ({
    session: login.session_id,
    account: login.account_id,
    state: login.state,
    since: login.since,
    wallet: login.wallet_address ?? '-',
    last_order: login.last_order_at ?? '-',
    reason: login.reason ?? '',
  }));
  const text =
    rows.length === 0
      ? 'no Fragment login recorded yet (a worker records its logins when it starts)'
      : table(rows, ['session', 'account', 'state', 'since', 'wallet', 'last_order', 'reason']);
  return { json: answer, text };
}
