import { useState } from 'preact/hooks';
import { api, ApiError, query } from '../api';
import { short, since } from '../format';
import { useLoader } from '../hooks';
import { TableHead } from './TableHead';
import type { WebhookDelivery, WebhookDeliveryList, WebhookEndpointList } from '../types';

const STATES = ['failed', 'pending', 'delivered', ''] as const;

/** Endpoints (secrets masked), recent deliveries by state, and a retry for the failed ones. */
export function Webhooks({ refreshMs }: { refreshMs: number | null }) {
  const [state, setState] = useState<(typeof STATES)[number]>('failed');
  const [notice, setNotice] = useState<string | undefined>();
  const endpoints = useLoader(() => api.get<WebhookEndpointList>('/admin/api/webhook-endpoints'), [], refreshMs);
  const deliveries = useLoader(
    () => api.get<WebhookDeliveryList>(`/admin/api/webhook-deliveries${query({ state, limit: 100 })}`),
    [state],
    refreshMs,
  );
  const urls = new Map((endpoints.data?.data ?? []).map((endpoint) => [endpoint.id, endpoint.url]));

  const retry = async (delivery: WebhookDelivery) => {
    try {
      await api.post(`/admin/api/webhook-deliveries/${encodeURIComponent(delivery.id)}/retry`);
      setNotice(`Delivery ${short(delivery.id, 4)} queued again.`);
      deliveries.reload();
    } catch (error) {
      setNotice(error instanceof ApiError ? `${error.code}: ${error.message}` : String(error));
    }
  };

  return (
    <section class="stack">
      <div class="card">
        <h2>Endpoints</h2>
        {endpoints.error && <p class="error">{endpoints.error}</p>}
        <table>
          <TableHead columns={['URL', 'Events', 'Signing secrets', 'Added']} />
          <tbody>
            {(endpoints.data?.data ?? []).map((endpoint) => (
              <tr key={endpoint.id}>
                <td class="mono">{endpoint.url}</td>
                <td>{endpoint.events?.join(', ') ?? 'all'}</td>
                <td class="mono">{endpoint.secrets.map((secret) => secret.hint).join(', ')}</td>
                <td>{since(endpoint.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {endpoints.data && (endpoints.data.data ?? []).length === 0 && (
          <p class="muted">No endpoint yet: add one with `npx starsgate webhooks add &lt;url&gt;`.</p>
        )}
      </div>
      <div class="card">
        <h2>Deliveries</h2>
        <div class="tabs small" role="tablist">
          {STATES.map((value) => (
            <button key={value} role="tab" aria-selected={state === value} onClick={() => setState(value)}>
              {value || 'all'}
            </button>
          ))}
        </div>
        {notice && <p class="notice">{notice}</p>}
        {deliveries.error && <p class="error">{deliveries.error}</p>}
        <table class="rows">
          <TableHead columns={['Event', 'Purchase', 'Endpoint', 'State', 'Attempts', 'Last answer', 'Last try', '']} />
          <tbody>
            {(deliveries.data?.data ?? []).map((delivery) => (
              <tr key={delivery.id}>
                <td>
                  {delivery.event_type} #{delivery.sequence}
                </td>
                <td class="mono">
                  <a href={`#/orders/${delivery.purchase_id}`}>{short(delivery.purchase_id, 4)}</a>
                </td>
                <td class="mono">{urls.get(delivery.endpoint_id) ?? short(delivery.endpoint_id, 4)}</td>
                <td>
                  <span class={`badge delivery-${delivery.state}`}>{delivery.state}</span>
                </td>
                <td>{delivery.attempts}</td>
                <td>{delivery.last_status ?? delivery.last_error ?? '—'}</td>
                <td>{since(delivery.last_attempt_at)}</td>
                <td>
                  {delivery.state === 'failed' && (
                    <button class="small" onClick={() => void retry(delivery)}>
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {deliveries.data?.data.length === 0 && <p class="muted">None.</p>}
      </div>
    </section>
  );
}
