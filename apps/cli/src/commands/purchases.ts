import { AdminClient, query } from '../admin-client';
import { fields, pageText, table, type Page, type Row } from '../output';
import type { CommandResult, Options } from './command';

const LIST_COLUMNS = ['purchase_id', 'status', 'product', 'quantities', 'payment_method', 'username', 'created_at'];
const SHOW_FIELDS = [
  'purchase_id',
  'status',
  'product',
  'quantities',
  'amount',
  'payment_method',
  'username',
  'idempotency_key',
  'wallet_address',
  'wallet_version',
  'version',
  'fragment_request_id',
  'fragment_ref',
  'fragment_from',
  'paid',
  'normalized_hash',
  'external_hash',
  'transaction_hash',
  'error',
  'created_at',
  'updated_at',
  'completed_at',
];

export async function listPurchases(client: AdminClient, options: Options): Promise<CommandResult> {
  const page = await client.call<Page>(
    'GET',
    `/admin/api/purchases${query({
      status: options.status,
      product: options.product,
      payment_method: options['payment-method'],
      username: options.username,
      wallet_address: options.wallet,
      idempotency_key: options['idempotency-key'],
      created_from: options.from,
      created_to: options.to,
      limit: options.limit,
      cursor: options.cursor,
    })}`,
  );
  return { json: page, text: pageText({ ...page, data: page.data.map(withQuantitiesText) }, LIST_COLUMNS) };
}

/**
 * An order line's quantities for people, whatever the product: `winners=10 months=3`
 * (`amount` for a row without them). `--json` keeps the object.
 */
function withQuantitiesText(row: Row): Row {
  const quantities = row.quantities;
  const text =
    quantities && typeof quantities === 'object'
      ? Object.entries(quantities)
          .map(([name, value]) => `${name}=${String(value)}`)
          .join(' ')
      : String(row.amount);
  return { ...row, quantities: text };
}

interface PaidAmount {
  quote?: string | null;
  quote_human?: string | null;
  message_human?: string | null;
  jetton_human?: string | null;
}

/** What was paid, as people read it ("0.4412 GRAM"): the admin API's human fields. `--json` keeps the base units. */
function paidText(paid: PaidAmount | null | undefined): string | null {
  if (!paid) return null;
  const amount = paid.quote_human ?? (paid.quote ? `${paid.quote} base units` : null);
  if (!amount) return null;
  const carried = paid.jetton_human ? `; message carries ${paid.message_human ?? '?'} for fees` : '';
  return `${amount}${carried}`;
}

export async function showPurchase(client: AdminClient, id: string): Promise<CommandResult> {
  const purchase = await client.call<Row & { events: Row[]; evidence: unknown; paid_amount?: PaidAmount | null }>(
    'GET',
    `/admin/api/purchases/${encodeURIComponent(id)}`,
  );
  const text = [
    fields({ ...withQuantitiesText(purchase), paid: paidText(purchase.paid_amount) }, SHOW_FIELDS),
    '',
    'timeline:',
    table(purchase.events, ['at', 'from_status', 'to_status', 'actor', 'reason']),
    '',
    `evidence: ${JSON.stringify(purchase.evidence, null, 2)}`,
  ].join('\n');
  return { json: purchase, text };
}

export async function resolvePurchase(client: AdminClient, id: string, options: Options): Promise<CommandResult> {
  const purchase = await client.call<Row>('POST', `/admin/api/purchases/${encodeURIComponent(id)}/resolve`, {
    outcome: options.outcome,
    reason: options.reason,
    operator: client.operator,
    ...(options.tx ? { transaction_hash: options.tx } : {}),
  });
  return { json: purchase, text: fields(purchase, ['purchase_id', 'status', 'transaction_hash', 'updated_at']) };
}
