/**
 * From the local chain: every payment into Fragment's receiving addresses (GRAM with the order's
 * comment, or USDT notifications from the receiver's own jetton wallet), counted per Fragment
 * reference. A reference paid twice is a double payment; a reference no purchase row carries is a
 * payment without its purchase; a `completed` row with no payment on chain is a completion
 * without payment.
 */
import { Address, Cell, loadTransaction } from '@ton/core';
import type pg from 'pg';
import { decodeFragmentPayment } from './fragment-payload';

export interface ChainReport {
  transactionsRead: number;
  payments: number;
  paymentsByKind: { gram: number; usdt: number };
  doublePayments: Array<{ ref: string; count: number; purchaseId?: string }>;
  paymentsWithoutPurchase: string[];
  completedWithoutPayment: string[];
  /** Notifications into a receiver from some other jetton wallet (forged or foreign tokens). */
  foreignNotifications: number;
}

async function getJson(url: string): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, { signal: AbortSignal.timeout(20_000) }).catch(() => undefined);
    if (response?.ok) return (await response.json()) as Record<string, unknown>;
    if (attempt >= 10) throw new Error(`${url}: HTTP ${response?.status ?? 'no answer'}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface V2Transaction {
  data: string;
  transaction_id: { lt: string; hash: string };
}

/** Every transaction of an account, newest first, paged through toncenter v2 getTransactions. */
async function allTransactions(toncenter: string, address: string): Promise<V2Transaction[]> {
  const out: V2Transaction[] = [];
  let cursor: { lt: string; hash: string } | undefined;
  for (;;) {
    const query = new URLSearchParams({ address, limit: '256' });
    if (cursor) {
      query.set('lt', cursor.lt);
      query.set('hash', cursor.hash);
    }
    const page = ((await getJson(`${toncenter}/api/v2/getTransactions?${query.toString()}`))['result'] ??
      []) as V2Transaction[];
    const fresh = cursor
      ? page.filter((t) => !(t.transaction_id.lt === cursor!.lt && t.transaction_id.hash === cursor!.hash))
      : page;
    out.push(...fresh);
    if (fresh.length === 0) return out;
    cursor = page[page.length - 1]!.transaction_id;
  }
}

export async function checkChainPayments(sandboxUrl: string, pool: pg.Pool): Promise<ChainReport> {
  const toncenter = `${sandboxUrl}/toncenter`;
  const receivers = (await getJson(`${sandboxUrl}/admin/fragment/receivers`)) as Record<string, string>;
  const report: ChainReport = {
    transactionsRead: 0,
    payments: 0,
    paymentsByKind: { gram: 0, usdt: 0 },
    doublePayments: [],
    paymentsWithoutPurchase: [],
    completedWithoutPayment: [],
    foreignNotifications: 0,
  };
  const paid = new Map<string, number>();
  for (const raw of [receivers['starsRaw']!, receivers['premiumRaw']!]) {
    const receiver = Address.parse(raw);
    const jetton = await getJson(`${toncenter}/api/v3/jetton/wallets?owner_address=${encodeURIComponent(raw)}`);
    const jettonWallet = (jetton['jetton_wallets'] as Array<{ address: string }>)[0]?.address;
    for (const entry of await allTransactions(toncenter, raw)) {
      report.transactionsRead += 1;
      const tx = loadTransaction(Cell.fromBase64(entry.data).beginParse());
      const message = tx.inMessage;
      if (!message || message.info.type !== 'internal' || !message.info.dest.equals(receiver)) continue;
      // A GRAM message that bounced back paid nothing.
      if (tx.description.type === 'generic' && tx.description.bouncePhase?.type === 'ok') continue;
      const decoded = decodeFragmentPayment(message.body);
      if (!decoded) continue;
      if (decoded.kind === 'usdt' && (!jettonWallet || !message.info.src.equals(Address.parse(jettonWallet)))) {
        report.foreignNotifications += 1;
        continue;
      }
      report.payments += 1;
      report.paymentsByKind[decoded.kind] += 1;
      paid.set(decoded.ref, (paid.get(decoded.ref) ?? 0) + 1);
    }
  }
  const { rows } = await pool.query<{ id: string; status: string; fragment_ref: string | null }>(
    'SELECT id, status, fragment_ref FROM purchases',
  );
  const byRef = new Map(rows.filter((r) => r.fragment_ref).map((r) => [r.fragment_ref!, r]));
  for (const [ref, count] of paid) {
    const row = byRef.get(ref);
    if (count > 1) report.doublePayments.push({ ref, count, ...(row ? { purchaseId: row.id } : {}) });
    if (!row) report.paymentsWithoutPurchase.push(ref);
  }
  for (const row of rows)
    if (row.status === 'completed' && (!row.fragment_ref || !paid.has(row.fragment_ref)))
      report.completedWithoutPayment.push(row.id);
  return report;
}
