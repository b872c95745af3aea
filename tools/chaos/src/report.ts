/** The run's one table: what was sent, what was done to the system, what came out, what was checked. */
import type { ChainReport } from './checks/chain-payments';
import type { DeliveriesReport } from './checks/deliveries';
import type { RowsReport } from './checks/rows';
import type { SeedLeakReport } from './checks/seed-leaks';
import type { WebhooksReport } from './checks/webhooks';
import type { FaultRecord } from './fault-scheduler';
import type { HttpClient } from './http-client';
import type { Ledger } from './ledger';
import { RUN_TONCENTER_TIER, type ManagedProcess, type ToncenterTraffic } from '@starsgate/stack';

export interface RunFacts {
  clients: Record<string, HttpClient>;
  ledger: Ledger;
  faults: FaultRecord[];
  processes: ManagedProcess[];
  rows: RowsReport;
  settled: { settled: boolean; waitedMs: number };
  chain: ChainReport;
  deliveries: DeliveriesReport;
  leaks: SeedLeakReport;
  webhooks: WebhooksReport;
  toncenter: ToncenterTraffic;
  seconds: { drive: number; total: number };
}

type Row = [section: string, item: string, value: string, verdict: string];

const list = (record: Record<string, number>): string =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || '—';

const sample = (items: string[]): string =>
  items.length === 0 ? '0' : `${items.length}: ${items.slice(0, 3).join(', ')}${items.length > 3 ? ' …' : ''}`;

export function buildRows(f: RunFacts): { rows: Row[]; violations: string[] } {
  const rows: Row[] = [];
  const violations: string[] = [];
  const must = (section: string, item: string, value: string, ok: boolean): void => {
    rows.push([section, item, value, ok ? 'ok' : 'VIOLATION']);
    if (!ok) violations.push(`${item}: ${value}`);
  };
  const info = (section: string, item: string, value: string): void => void rows.push([section, item, value, '']);

  for (const [name, client] of Object.entries(f.clients)) {
    const c = client.counters;
    info(
      'requests',
      name,
      `sent ${c.sent}, 202 ${c.byStatus['202'] ?? 0}, retries ${c.retries}, timeouts ${c.timeouts}, connection errors ${c.connectionErrors}, gave up ${c.gaveUp}`,
    );
    info('requests', `${name} by HTTP status`, list(c.byStatus));
  }
  info(
    'requests',
    'orders accepted (202)',
    `purchases ${f.ledger.purchases.size}, checkouts ${f.ledger.checkouts.size}, double clicks ${f.ledger.doubleSends}`,
  );
  info('requests', 'refused (final 4xx)', list(f.ledger.refusals));
  info('requests', 'checkout payers', list(f.ledger.payments));
  const internal = Object.values(f.clients).flatMap((c) =>
    c.counters.internalErrors.map((e) => `${e.method} ${e.path} ${e.code}`),
  );
  must('requests', 'HTTP 500 answers', sample(internal), internal.length === 0);
  must('requests', 'one key, one order', sample(f.ledger.idMismatches), f.ledger.idMismatches.length === 0);

  const byKind: Record<string, number> = {};
  for (const fault of f.faults) byKind[fault.kind] = (byKind[fault.kind] ?? 0) + 1;
  for (const [kind, count] of Object.entries(byKind)) {
    const records = f.faults.filter((r) => r.kind === kind);
    info(
      'faults',
      kind,
      `${count}× (${records.map((r) => `${r.target} back in ${(r.recoveryMs / 1000).toFixed(1)} s`).join('; ')})`,
    );
  }
  const faultErrors = f.faults.filter((r) => r.error).map((r) => `${r.kind}: ${r.error}`);
  must('faults', 'faults applied without error', sample(faultErrors), faultErrors.length === 0);
  const starts: Record<string, number> = {};
  const crashes: string[] = [];
  for (const p of f.processes) {
    starts[p.kind] = (starts[p.kind] ?? 0) + p.starts;
    if (p.unexpectedExits > 0) crashes.push(`${p.name} ${p.unexpectedExits}`);
  }
  info('faults', 'process starts by kind', list(starts));
  must('faults', 'processes that died on their own', sample(crashes), crashes.length === 0);

  for (const [mode, counts] of Object.entries(f.rows.byModeAndStatus)) info('outcomes', mode, list(counts));
  const reasons = (item: string, record: Record<string, number>): void => {
    const entries = Object.entries(record).sort((a, b) => b[1] - a[1]);
    if (entries.length === 0) info('outcomes', item, '—');
    for (const [reason, count] of entries) info('outcomes', item, `${reason}: ${count}`);
  };
  reasons('reconciliation cases (why)', f.rows.reconciliationReasons);
  reasons('failed / expired (why)', f.rows.failureReasons);
  info('outcomes', 'rows without a 202 seen (answer lost)', String(f.rows.unknownRows));
  must('outcomes', 'lost (202 without row)', sample(f.rows.lost), f.rows.lost.length === 0);
  must(
    'outcomes',
    `not final by the deadline (waited ${(f.settled.waitedMs / 1000).toFixed(0)} s)`,
    sample(f.rows.stuck.map((s) => `${s.id} ${s.status}`)),
    f.rows.stuck.length === 0,
  );

  info(
    'chain',
    'payments into Fragment receivers',
    `${f.chain.payments} (GRAM ${f.chain.paymentsByKind.gram}, USDT ${f.chain.paymentsByKind.usdt}) in ${f.chain.transactionsRead} transactions`,
  );
  must(
    'chain',
    'double payments (one Ref# paid twice)',
    sample(f.chain.doublePayments.map((d) => `${d.ref}×${d.count}`)),
    f.chain.doublePayments.length === 0,
  );
  must(
    'chain',
    'payments without purchase',
    sample(f.chain.paymentsWithoutPurchase),
    f.chain.paymentsWithoutPurchase.length === 0,
  );
  must(
    'chain',
    'completed without payment',
    sample(f.chain.completedWithoutPayment),
    f.chain.completedWithoutPayment.length === 0,
  );
  const orders = f.ledger.purchases.size + f.ledger.checkouts.size;
  info(
    'toncenter',
    `service requests (${RUN_TONCENTER_TIER.rps} rps keyed limit enforced)`,
    `${f.toncenter.service.requests} over the ${f.seconds.drive} s drive and the settle, ${orders > 0 ? (f.toncenter.service.requests / orders).toFixed(1) : '—'} per accepted order`,
  );
  info('toncenter', '429s injected at random (fault)', String(f.toncenter.injected429));
  info('toncenter', '429s from the enforced limit (target 0)', String(f.toncenter.service.rateLimited));
  info('fragment', 'orders / delivered', `${f.deliveries.fragmentOrders} / ${f.deliveries.delivered}`);
  must(
    'fragment',
    'completed but not delivered',
    sample(f.deliveries.completedNotDelivered),
    f.deliveries.completedNotDelivered.length === 0,
  );
  must(
    'fragment',
    'delivered but not completed/reconciliation',
    sample(f.deliveries.deliveredButNot.map((d) => `${d.ref} ${d.status}`)),
    f.deliveries.deliveredButNot.length === 0,
  );
  must(
    'fragment',
    'duplicate payments seen by Fragment',
    String(f.deliveries.simulatorDuplicatePayments),
    f.deliveries.simulatorDuplicatePayments === 0,
  );

  info(
    'seeds',
    'searched',
    `${f.leaks.needles} needles in ${f.leaks.logFiles} logs (${(f.leaks.logBytes / 1e6).toFixed(1)} MB), ${f.leaks.redisKeys} Redis keys, ${f.leaks.cells} cells of ${f.leaks.columns} columns`,
  );
  must(
    'seeds',
    'seed found',
    sample(f.leaks.leaks.map((l) => `${l.where} (${l.wallet}, ${l.encoding})`)),
    f.leaks.leaks.length === 0,
  );

  info(
    'webhooks',
    'events / status changes / received',
    `${f.webhooks.events} / ${f.webhooks.statusChanges} / ${f.webhooks.received} (${f.webhooks.requests} requests; deliveries ${list(f.webhooks.deliveriesByState)})`,
  );
  must('webhooks', 'bad signatures', String(f.webhooks.badSignatures), f.webhooks.badSignatures === 0);
  must('webhooks', 'events never received', sample(f.webhooks.missingEvents), f.webhooks.missingEvents.length === 0);
  must(
    'webhooks',
    'status changes never notified',
    sample(f.webhooks.missingStatusChanges),
    f.webhooks.missingStatusChanges.length === 0,
  );
  info('run', 'duration', `drive ${f.seconds.drive} s, total ${f.seconds.total} s`);
  return { rows, violations };
}

export function renderTable(rows: Row[]): string {
  const header: Row = ['area', 'what', 'figure', 'check'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
  widths[2] = Math.min(widths[2]!, 110);
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 2 && c.length > widths[2]! ? `${c.slice(0, widths[2]! - 1)}…` : c.padEnd(widths[i]!))).join(' | ')} |`;
  const separator = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  let previous = '';
  const body = rows.map((r) => {
    const shown = [r[0] === previous ? '' : r[0], r[1], r[2], r[3]];
    previous = r[0];
    return line(shown);
  });
  return [line(header), separator, ...body].join('\n');
}
