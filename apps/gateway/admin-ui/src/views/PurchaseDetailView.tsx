import { api } from '../api';
import { orderLine, short, time } from '../format';
import { useLoader } from '../hooks';
import type { PaidAmount, PurchaseDetail } from '../types';
import { ResolveForm } from './ResolveForm';

function Field({ label, value, mono }: { label: string; value: string | number | null | undefined; mono?: boolean }) {
  const text = value === null || value === undefined || value === '' ? '—' : String(value);
  return (
    <>
      <dt>{label}</dt>
      <dd class={mono ? 'mono' : undefined} title={text}>
        {text}
      </dd>
    </>
  );
}

/** What Fragment asked to be paid, in GRAM/USDT as the admin API words it; the base units under "raw". */
/** The name an operator gave with a resolution: a label beside the authenticated actor. */
function operatorLabel(details: unknown): string | undefined {
  const operator = (details as { operator?: unknown } | null)?.operator;
  return typeof operator === 'string' ? operator : undefined;
}

function PaymentFields({ paid }: { paid: PaidAmount | null | undefined }) {
  if (!paid) return <p class="muted">Not priced yet.</p>;
  return (
    <>
      <dl class="fields" data-testid="payment">
        <Field label="Invoice" value={paid.quote_human ?? paid.quote} />
        {paid.jetton_human && <Field label="USDT sent" value={paid.jetton_human} />}
        <Field label={paid.jetton_human ? 'GRAM for fees' : 'GRAM sent'} value={paid.message_human} />
        <Field label="Receiver" value={paid.receiver} mono />
      </dl>
      <details>
        <summary>raw</summary>
        <pre>{JSON.stringify(paid, null, 2)}</pre>
      </details>
    </>
  );
}

/** One purchase: its fields, payment and hashes, the evidence, the timeline; the resolve form for an open case. */
export function PurchaseDetailView({
  id,
  operator,
  refreshMs,
  onResolved,
}: {
  id: string;
  operator: string;
  refreshMs: number | null;
  /** Told after this page resolved the case (the list of open cases reloads). */
  onResolved?: () => void;
}) {
  const detail = useLoader(
    () => api.get<PurchaseDetail>(`/admin/api/purchases/${encodeURIComponent(id)}`),
    [id],
    refreshMs,
  );
  if (detail.error && !detail.data) return <p class="error">{detail.error}</p>;
  const purchase = detail.data;
  if (!purchase) return <p class="muted">Loading…</p>;

  return (
    <section class="stack detail" data-testid="purchase-detail">
      <div class="card">
        <h2>
          Purchase <span class="mono">{purchase.purchase_id}</span>{' '}
          <span class={`badge status-${purchase.status}`} data-testid="detail-status">
            {purchase.status}
          </span>
        </h2>
        <dl class="fields">
          <Field label="Order" value={orderLine(purchase)} />
          <Field label="Recipient" value={purchase.username} />
          <Field label="Paid in" value={purchase.payment_method} />
          <Field label="Created" value={time(purchase.created_at)} />
          <Field label="Finished" value={time(purchase.completed_at)} />
          <Field label="Idempotency key" value={purchase.idempotency_key} mono />
          <Field label="Wallet" value={purchase.wallet_address} mono />
          <Field label="Wallet version" value={purchase.wallet_version} />
          <Field label="Fragment request" value={purchase.fragment_request_id} mono />
          <Field label="Fragment Ref#" value={purchase.fragment_ref} mono />
          <Field label="Fragment session" value={purchase.fragment_session} mono />
          <Field
            label="Fragment named as payer"
            value={
              purchase.fragment_from === null
                ? null
                : purchase.fragment_from_is_payer
                  ? `${purchase.fragment_from} (the payer)`
                  : `${purchase.fragment_from} (not the payer: the linked wallet)`
            }
            mono
          />
          <Field label="Normalized hash" value={short(purchase.normalized_hash, 12)} mono />
          <Field label="External hash" value={short(purchase.external_hash, 12)} mono />
          <Field label="Transaction" value={purchase.transaction_hash} mono />
          <Field label="Error" value={purchase.error ? `${purchase.error.code}: ${purchase.error.message}` : null} />
        </dl>
      </div>
      <div class="grid-2">
        <div class="card">
          <h2>Payment</h2>
          <PaymentFields paid={purchase.paid_amount} />
          <h2>Evidence</h2>
          <pre data-testid="evidence">{JSON.stringify(purchase.evidence, null, 2)}</pre>
        </div>
        {purchase.status === 'reconciliation_required' ? (
          <ResolveForm
            purchase={purchase}
            operator={operator}
            onResolved={() => {
              detail.reload();
              onResolved?.();
            }}
          />
        ) : (
          <div class="card">
            <h2>Status</h2>
            <p class="muted">
              {purchase.status === 'completed' || purchase.status === 'failed'
                ? 'Settled: nothing to do.'
                : 'In progress: the worker is on it.'}
            </p>
          </div>
        )}
      </div>
      <div class="card">
        <h2>Timeline</h2>
        <ol class="timeline" data-testid="timeline">
          {purchase.events.map((event, index) => (
            <li key={index} class={`event event-${event.type}`}>
              <time>{time(event.at)}</time>
              <span class="badge">{event.type}</span>
              <span>
                {event.from_status && event.from_status !== event.to_status
                  ? `${event.from_status} → ${event.to_status}`
                  : event.to_status}
              </span>
              <span class="muted">
                by {event.actor}
                {operatorLabel(event.details) && ` (operator: ${operatorLabel(event.details)})`}
              </span>
              {event.reason && <span class="reason">{event.reason}</span>}
              {event.details !== null && (
                <details>
                  <summary>details</summary>
                  <pre>{JSON.stringify(event.details, null, 2)}</pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
