import { api } from '../api';
import { short, since } from '../format';
import { useLoader } from '../hooks';
import { TableHead } from './TableHead';
import type { FragmentSessions } from '../types';

/** Each Fragment login: alive or dead since when, its account, linked wallet and last order (docs/fragment-protocol.md §20.3). */
export function FragmentLogins({ refreshMs }: { refreshMs: number | null }) {
  const logins = useLoader(() => api.get<FragmentSessions>('/admin/api/fragment-sessions'), [], refreshMs);
  const rows = logins.data?.data ?? [];
  return (
    <div class="card">
      <h2>Fragment logins</h2>
      {logins.error && <p class="error">{logins.error}</p>}
      <table>
        <TableHead columns={['Login', 'State', 'Since', 'Account', 'Wallet', 'Last order']} />
        <tbody>
          {rows.map((login) => (
            <tr key={login.session_id} data-testid={`fragment-login-${login.session_id}`}>
              <td class="mono">{login.session_id}</td>
              <td title={login.reason ?? ''}>
                <span class={`dot ${login.state === 'alive' ? 'ok' : 'bad'}`} /> {login.state}
              </td>
              <td>{since(login.since)}</td>
              <td class="mono">{login.account_id}</td>
              <td class="mono" title={login.wallet_address ?? ''}>
                {login.wallet_address ? short(login.wallet_address, 6) : '—'}
              </td>
              <td>{login.last_order_at ? since(login.last_order_at) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {logins.data && rows.length === 0 && <p class="muted">No worker has recorded its logins yet.</p>}
      {rows.some((login) => login.state === 'dead') && (
        <p class="muted small">
          A dead login is out of rotation and checked again on a schedule: renew its cookies (FRAGMENT_COOKIES_FILE), no
          restart needed.
        </p>
      )}
    </div>
  );
}
