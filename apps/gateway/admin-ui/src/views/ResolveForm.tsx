import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import type { PurchaseDetail } from '../types';

/**
 * Settles a reconciliation case through the API's rules: `completed` needs the transaction that
 * paid this purchase's Fragment request; `failed` is refused when the chain shows the payment.
 * The API's refusal (and what did not match) is shown as it answered.
 */
export function ResolveForm({
  purchase,
  operator,
  onResolved,
}: {
  purchase: PurchaseDetail;
  operator: string;
  onResolved: (purchase: PurchaseDetail) => void;
}) {
  const evidenceHash = (purchase.evidence?.chain as { tx_hash?: string } | undefined)?.tx_hash;
  const [outcome, setOutcome] = useState<'completed' | 'failed'>('completed');
  const [hash, setHash] = useState(purchase.transaction_hash ?? evidenceHash ?? '');
  const [reason, setReason] = useState('');
  const [who, setWho] = useState(operator);
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const resolved = await api.post<PurchaseDetail>(
        `/admin/api/purchases/${encodeURIComponent(purchase.purchase_id)}/resolve`,
        {
          outcome,
          reason,
          operator: who,
          ...(outcome === 'completed' && hash ? { transaction_hash: hash.trim() } : {}),
        },
      );
      onResolved(resolved);
    } catch (reason_) {
      setError(reason_ instanceof ApiError ? reason_ : new ApiError(0, 'ERROR', String(reason_)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card resolve" onSubmit={(event) => void submit(event)} aria-label="Resolve this case">
      <h2>Resolve this case</h2>
      <fieldset class="row">
        <label class="inline">
          <input
            type="radio"
            name="outcome"
            value="completed"
            checked={outcome === 'completed'}
            onChange={() => setOutcome('completed')}
          />
          Completed (paid and delivered)
        </label>
        <label class="inline">
          <input
            type="radio"
            name="outcome"
            value="failed"
            checked={outcome === 'failed'}
            onChange={() => setOutcome('failed')}
          />
          Failed (never paid)
        </label>
      </fieldset>
      {outcome === 'completed' && (
        <label>
          Transaction hash that paid the Fragment request
          <input
            name="transaction_hash"
            class="mono"
            required
            value={hash}
            onInput={(e) => setHash(e.currentTarget.value)}
          />
        </label>
      )}
      <label>
        Operator
        <input name="operator" required maxLength={100} value={who} onInput={(e) => setWho(e.currentTarget.value)} />
      </label>
      <label>
        Reason (recorded in the timeline)
        <textarea
          name="reason"
          required
          maxLength={2000}
          rows={3}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </label>
      {error && (
        <div class="error" role="alert">
          <strong>{error.code}</strong>: {error.message}
          {error.details.length > 0 && <pre>{JSON.stringify(error.details, null, 2)}</pre>}
        </div>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Resolving…' : `Resolve as ${outcome}`}
      </button>
    </form>
  );
}
