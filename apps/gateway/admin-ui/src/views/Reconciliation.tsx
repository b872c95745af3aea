import { api } from '../api';
import { useLoader } from '../hooks';
import type { PurchaseList } from '../types';
import { PurchaseDetailView } from './PurchaseDetailView';
import { PurchaseTable } from './PurchaseTable';

/** The open reconciliation cases; one case with its timeline, evidence and the resolve form. */
export function Reconciliation({
  caseId,
  operator,
  refreshMs,
}: {
  caseId: string | undefined;
  operator: string;
  refreshMs: number | null;
}) {
  const cases = useLoader(
    () => api.get<PurchaseList>('/admin/api/purchases?status=reconciliation_required&limit=200'),
    [],
    refreshMs,
  );
  return (
    <section class="stack">
      {caseId && (
        <>
          <p>
            <a href="#/reconciliation">← all open cases</a>
          </p>
          <PurchaseDetailView id={caseId} operator={operator} refreshMs={refreshMs} onResolved={cases.reload} />
        </>
      )}
      <div class="card">
        <h2>Open cases ({cases.data?.data.length ?? '…'})</h2>
        <p class="muted small">
          The service stopped short of guessing on these: the chain or Fragment did not give a conclusive answer. Settle
          each one from its evidence.
        </p>
        {cases.error && <p class="error">{cases.error}</p>}
        {cases.data && <PurchaseTable rows={cases.data.data} base="reconciliation" />}
      </div>
    </section>
  );
}
