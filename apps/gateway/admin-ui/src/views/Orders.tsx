import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { STATUS_ORDER } from '../format';
import { navigate, useLoader } from '../hooks';
import { purchaseProducts, type OperatorDocument } from '../products';
import type { PurchaseList } from '../types';
import { PurchaseDetailView } from './PurchaseDetailView';
import { PurchaseTable } from './PurchaseTable';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ADDRESS = /^(-?\d+:[0-9a-f]{64}|[A-Za-z0-9_-]{48})$/i;

/** What a search term is: a purchase id, a wallet address, a @username, or else an idempotency key. */
function filterFor(term: string): Record<string, string> {
  const value = term.trim();
  if (value === '') return {};
  if (ADDRESS.test(value)) return { wallet_address: value };
  if (value.startsWith('@')) return { username: value };
  return { idempotency_key: value };
}

function parseFilters(raw: string | undefined): { term: string; status: string; product: string } {
  const params = new URLSearchParams(raw ?? '');
  return { term: params.get('q') ?? '', status: params.get('status') ?? '', product: params.get('product') ?? '' };
}

/** Search by id, idempotency key, username or wallet; a purchase's detail with its timeline. */
export function Orders({
  segment,
  operator,
  refreshMs,
}: {
  segment: string | undefined;
  operator: string;
  refreshMs: number | null;
}) {
  const showing = segment && UUID.test(segment) ? segment : undefined;
  const filters = parseFilters(showing ? undefined : segment);
  const [term, setTerm] = useState(filters.term);
  const [status, setStatus] = useState(filters.status);
  const [product, setProduct] = useState(filters.product);
  const products = useLoader(() => api.get<OperatorDocument>('/admin/api/openapi.json'), [], null);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const results = useLoader(
    () =>
      api.get<PurchaseList>(
        `/admin/api/purchases${query({
          ...filterFor(filters.term),
          status: filters.status,
          product: filters.product,
          cursor,
          limit: 50,
        })}`,
      ),
    [filters.term, filters.status, filters.product, cursor],
    showing ? null : refreshMs,
  );

  const search = (event: Event) => {
    event.preventDefault();
    setCursors([]);
    if (UUID.test(term.trim())) return navigate('orders', term.trim().toLowerCase());
    navigate(
      'orders',
      new URLSearchParams({
        ...(term ? { q: term } : {}),
        ...(status ? { status } : {}),
        ...(product ? { product } : {}),
      }).toString(),
    );
  };

  if (showing)
    return (
      <section class="stack">
        <p>
          <a href="#/orders">← search</a>
        </p>
        <PurchaseDetailView id={showing} operator={operator} refreshMs={refreshMs} />
      </section>
    );

  return (
    <section class="stack">
      <form class="card search" onSubmit={search} role="search">
        <input
          name="q"
          placeholder="Purchase id, idempotency key, @username or wallet address"
          value={term}
          onInput={(e) => setTerm(e.currentTarget.value)}
        />
        <select name="status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">any status</option>
          {STATUS_ORDER.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <select name="product" value={product} onChange={(e) => setProduct(e.currentTarget.value)}>
          <option value="">any product</option>
          {(products.data ? purchaseProducts(products.data) : []).map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <button type="submit" class="primary">
          Search
        </button>
      </form>
      <div class="card">
        {results.error && <p class="error">{results.error}</p>}
        {results.data && <PurchaseTable rows={results.data.data} base="orders" />}
        <div class="pager">
          <button disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
            ← Newer
          </button>
          <button
            disabled={!results.data?.next_cursor}
            onClick={() => results.data?.next_cursor && setCursors([...cursors, results.data.next_cursor])}
          >
            Older →
          </button>
        </div>
      </div>
    </section>
  );
}
