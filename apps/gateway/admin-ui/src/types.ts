/** Shapes of the admin API answers the page reads (see the OpenAPI document, tag admin). */

export interface Session {
  operator: string;
  csrf_token: string;
}

export interface Stats {
  counts: Record<string, number>;
  oldest_age_seconds: Record<string, number>;
  reconciliation: { open: number; oldest_age_seconds: number | null };
  last_hour: { completed: number; failed: number };
  queues: Record<string, { waiting?: number; active?: number; delayed?: number; failed?: number }>;
}

export interface UpstreamError {
  kind: string;
  method: string;
  at: string;
}

export interface WorkerHealth {
  worker: string;
  at: string;
  fragment_sessions: Array<{
    session: number;
    valid: boolean | null;
    last_ok_at: string | null;
    last_error: UpstreamError | null;
  }>;
  chain: {
    calls: number;
    errors: number;
    mean_latency_ms: number | null;
    p95_latency_ms: number | null;
    last_error: UpstreamError | null;
  };
}

export interface FragmentSessions {
  data: Array<{
    session_id: string;
    account_id: string;
    state: 'alive' | 'dead';
    since: string;
    reason: string | null;
    wallet_address: string | null;
    last_order_at: string | null;
    checked_at: string | null;
  }>;
}

export interface Pipeline {
  open: Array<{ status: string; count: number; oldest_purchase_id: string | null; oldest_age_seconds: number | null }>;
  throughput: Array<{ minute: string; completed: number; failed: number }>;
  wallets_in_flight: Array<{ wallet_address: string; purchases: number; lease_expires_at: string }>;
  workers: WorkerHealth[];
}

export interface PurchaseSummary {
  purchase_id: string;
  status: string;
  product: string;
  username: string;
  amount: number;
  payment_method: string;
  created_at: string;
  updated_at?: string;
  completed_at: string | null;
  idempotency_key: string;
  wallet_address: string | null;
  error?: { code: string; message: string; details?: unknown[] };
}

export interface PurchaseEvent {
  at: string;
  type: string;
  from_status: string | null;
  to_status: string;
  actor: string;
  reason: string | null;
  details: unknown;
}

/** Base units (decimal strings) for machines, `*_human` ("0.4412 GRAM") for people. */
export interface PaidAmount {
  currency: string | null;
  quote: string | null;
  quote_human: string | null;
  message_nano: string | null;
  message_human: string | null;
  receiver: string | null;
  jetton_units?: string | null;
  jetton_human?: string | null;
}

export interface PurchaseDetail extends PurchaseSummary {
  wallet_version: string | null;
  fragment_request_id: string | null;
  fragment_ref: string | null;
  fragment_session: string | null;
  fragment_from: string | null;
  fragment_from_is_payer: boolean | null;
  paid_amount: PaidAmount | null;
  normalized_hash: string | null;
  external_hash: string | null;
  transaction_hash: string | null;
  evidence: Record<string, unknown> | null;
  events: PurchaseEvent[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string | null;
  events: string[] | null;
  created_at: string;
  secrets: Array<{ hint: string; expires_at: string | null }>;
}

export interface WebhookDelivery {
  id: string;
  endpoint_id: string;
  event_type: string;
  purchase_id: string;
  sequence: number;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}
