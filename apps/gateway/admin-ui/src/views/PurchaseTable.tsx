import { orderLine, short, since } from '../format';
import { navigate } from '../hooks';
import { TableHead } from './TableHead';
import type { PurchaseSummary } from '../types';

/** A list of purchases; a row opens its detail under `base`. */
export function PurchaseTable({ rows, base }: { rows: PurchaseSummary[]; base: string }) {
  if (rows.length === 0) return <p class="muted">No purchases match.</p>;
  return (
    <table class="rows">
      <TableHead columns={['Purchase', 'Status', 'Order', 'Recipient', 'Wallet', 'Error', 'Created']} />
      <tbody>
        {rows.map((row) => (
          <tr key={row.purchase_id} class="clickable" onClick={() => navigate(base, row.purchase_id)}>
            <td class="mono">
              <a href={`#/${base}/${row.purchase_id}`}>{short(row.purchase_id, 4)}</a>
            </td>
            <td>
              <span class={`badge status-${row.status}`}>{row.status}</span>
            </td>
            <td>
              {orderLine(row)} · {row.payment_method}
            </td>
            <td>{row.username}</td>
            <td class="mono" title={row.wallet_address ?? ''}>
              {short(row.wallet_address, 6)}
            </td>
            <td>{row.error?.code ?? ''}</td>
            <td>{since(row.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
