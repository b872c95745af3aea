import { api } from '../api';
import { age, short, since, STATUS_ORDER } from '../format';
import { navigate, useLoader } from '../hooks';
import { TableHead } from './TableHead';
import type { Pipeline as PipelineData, Stats } from '../types';
import { ThroughputChart } from './ThroughputChart';
import { FragmentLogins } from './FragmentLogins';

const TERMINAL = new Set(['completed', 'failed']);

/** The pipeline at a glance: counts and longest waits per status, the last hour, upstreams, wallets, queues. */
export function Pipeline({ refreshMs, theme }: { refreshMs: number | null; theme: string }) {
  const stats = useLoader(() => api.get<Stats>('/admin/api/stats'), [], refreshMs);
  const pipeline = useLoader(() => api.get<PipelineData>('/admin/api/pipeline'), [], refreshMs);
  const open = new Map((pipeline.data?.open ?? []).map((entry) => [entry.status, entry]));

  return (
    <section class="stack">
      {(stats.error ?? pipeline.error) && <p class="error">{stats.error ?? pipeline.error}</p>}
      <div class="cards" aria-label="Purchases by status">
        {STATUS_ORDER.map((status) => {
          const oldest = open.get(status);
          return (
            <button
              key={status}
              class={`card status-card status-${status}`}
              data-status={status}
              onClick={() =>
                navigate(status === 'reconciliation_required' ? 'reconciliation' : 'orders', `status=${status}`)
              }
            >
              <span class="label">{status.replace('_', ' ')}</span>
              <span class="count" data-testid={`count-${status}`}>
                {stats.data?.counts[status] ?? '…'}
              </span>
              <span class="muted small">
                {TERMINAL.has(status)
                  ? status === 'completed'
                    ? `${stats.data?.last_hour.completed ?? 0} in the last hour`
                    : `${stats.data?.last_hour.failed ?? 0} in the last hour`
                  : oldest
                    ? `oldest ${age(oldest.oldest_age_seconds)}`
                    : 'none waiting'}
              </span>
            </button>
          );
        })}
      </div>

      <div class="grid-2">
        <div class="card">
          <h2>Completions and failures, last hour</h2>
          {pipeline.data && <ThroughputChart points={pipeline.data.throughput} theme={theme} />}
        </div>
        <div class="card">
          <h2>Longest waits</h2>
          <table>
            <TableHead columns={['Status', 'Waiting', 'Oldest', 'For']} />
            <tbody>
              {(pipeline.data?.open ?? []).map((entry) => (
                <tr key={entry.status}>
                  <td>
                    <span class={`badge status-${entry.status}`}>{entry.status}</span>
                  </td>
                  <td>{entry.count}</td>
                  <td>
                    {entry.oldest_purchase_id && (
                      <a href={`#/orders/${entry.oldest_purchase_id}`} class="mono">
                        {short(entry.oldest_purchase_id, 4)}
                      </a>
                    )}
                  </td>
                  <td>{age(entry.oldest_age_seconds)}</td>
                </tr>
              ))}
              {pipeline.data?.open.length === 0 && (
                <tr>
                  <td colSpan={4} class="muted">
                    Nothing in flight.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </div>

      <div class="grid-3">
        <div class="card">
          <h2>Upstreams</h2>
          {(pipeline.data?.workers ?? []).length === 0 && <p class="muted">No worker has reported yet.</p>}
          {(pipeline.data?.workers ?? []).map((worker) => (
            <div key={worker.worker} class="worker">
              <h3 class="muted small">
                {worker.worker} · reported {since(worker.at)}
              </h3>
              <ul class="plain">
                {worker.fragment_sessions.map((session) => (
                  <li key={session.session} data-testid={`fragment-session-${session.session}`}>
                    <span class={`dot ${session.valid === null ? 'unknown' : session.valid ? 'ok' : 'bad'}`} />
                    Fragment session {session.session}:{' '}
                    {session.valid === null ? 'not used yet' : session.valid ? 'valid' : 'refused'}
                    {session.last_error && (
                      <span class="muted small">
                        {' '}
                        · last error {session.last_error.kind} in {session.last_error.method},{' '}
                        {since(session.last_error.at)}
                      </span>
                    )}
                  </li>
                ))}
                <li>
                  <span class={`dot ${worker.chain.errors > 0 ? 'warn' : 'ok'}`} />
                  Chain: {worker.chain.mean_latency_ms ?? '—'} ms mean, {worker.chain.p95_latency_ms ?? '—'} ms p95,{' '}
                  {worker.chain.errors} errors in the last {worker.chain.calls} calls
                </li>
              </ul>
            </div>
          ))}
        </div>
        <div class="card">
          <h2>Wallets with a transaction in flight</h2>
          <table>
            <tbody>
              {(pipeline.data?.wallets_in_flight ?? []).map((wallet) => (
                <tr key={wallet.wallet_address}>
                  <td class="mono" title={wallet.wallet_address}>
                    {short(wallet.wallet_address, 6)}
                  </td>
                  <td>{wallet.purchases} purchases</td>
                </tr>
              ))}
            </tbody>
          </table>
          {pipeline.data?.wallets_in_flight.length === 0 && <p class="muted">No wallet is sending.</p>}
        </div>
        <div class="card">
          <h2>Queues</h2>
          <table>
            <TableHead columns={['Queue', 'Waiting', 'Active', 'Delayed', 'Failed']} />
            <tbody>
              {Object.entries(stats.data?.queues ?? {}).map(([name, counts]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>{counts.waiting ?? 0}</td>
                  <td>{counts.active ?? 0}</td>
                  <td>{counts.delayed ?? 0}</td>
                  <td>{counts.failed ?? 0}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <a href="/admin/queues">Open Bull Board →</a>
          </p>
        </div>
      </div>
      <FragmentLogins refreshMs={refreshMs} />
    </section>
  );
}
