import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSubmit } from '../hooks';
import type { PurchaseDetail } from '../types';

const OUTCOMES: Array<['completed' | 'failed', string]> = [
  ['completed', 'Completed (paid and delivered)'],
  ['failed', 'Failed (never paid)'],
];

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
  const { busy, error, onSubmit } = useSubmit(async () => {
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
  });

  return (
    <form class="card resolve" onSubmit={onSubmit} aria-label="Resolve this case">
      <h2>Resolve this case</h2>
      <fieldset class="row">
        {OUTCOMES.map(([value, label]) => (
          <label key={value} class="inline">
            <input
              type="radio"
              name="outcome"
              value={value}
              checked={outcome === value}
              onChange={() => setOutcome(value)}
            />
            {label}
          </label>
        ))}
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
