/**
 * The admin API's shapes as the page reads them: generated from the operator OpenAPI document
 * (`generated/operator-openapi-types.ts`, kept equal to `/admin/api/openapi.json` by the SDK's
 * contract test). Declared here by hand only what that document does not describe in detail: the
 * dashboard's own login (`/admin/session`, not an operator API route) and the pipeline's rows
 * (plain objects in the document).
 */
import type {
  AdminFragmentSessionsResponse,
  AdminListWebhookEndpointsResponse,
  AdminPipelineResponse,
  AdminPurchaseDetail,
  AdminPurchaseList,
  AdminPurchaseSummary,
  AdminStats,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
} from './generated/operator-openapi-types';

export type { WebhookDelivery, WebhookDeliveryList, WebhookEndpoint };
export type PurchaseSummary = AdminPurchaseSummary;
export type PurchaseList = AdminPurchaseList;
export type PurchaseDetail = AdminPurchaseDetail;
export type PurchaseEvent = AdminPurchaseDetail['events'][number];
export type PaidAmount = NonNullable<AdminPurchaseDetail['paid_amount']>;
export type Stats = AdminStats;
export type FragmentSessions = AdminFragmentSessionsResponse;
export type WebhookEndpointList = AdminListWebhookEndpointsResponse;

export interface Session {
  operator: string;
  csrf_token: string;
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

/** `AdminPipelineResponse` with its rows as the route fills them. */
export interface Pipeline extends Record<keyof AdminPipelineResponse & string, unknown> {
  open: Array<{ status: string; count: number; oldest_purchase_id: string | null; oldest_age_seconds: number | null }>;
  throughput: Array<{ minute: string; completed: number; failed: number }>;
  wallets_in_flight: Array<{ wallet_address: string; purchases: number; lease_expires_at: string }>;
  workers: WorkerHealth[];
}
