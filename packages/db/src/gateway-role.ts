import { grantRole, quoteIdent, type ServiceRole } from './service-role';

/**
 * The `purchases` columns the gateway may change after intake: the lifecycle an accepted checkout
 * BOC (/submitted) and an operator's resolution move. Never what decides a payment (the accepted
 * `payment_request`, the payer's wallet and key, the order's product, amount, username and method,
 * the checkout's transaction, the Fragment order): those are the worker's alone (docs/security.md,
 * attack 18).
 */
export const GATEWAY_PURCHASE_UPDATE_COLUMNS = [
  'status',
  'error',
  'evidence',
  'completed_at',
  'batch_id',
  'normalized_hash',
  'seqno',
  'valid_until',
  'transaction_hash',
  'transaction_lt',
  'attempt',
  'next_run_at',
  'step_started_at',
  'lease_owner',
  'lease_expires_at',
  'version',
  'updated_at',
  'worked_at',
] as const;

/** Row privileges of the gateway's role per table: what intake, /submitted and the operator API write. */
const GATEWAY_TABLE_PRIVILEGES: Record<string, string> = {
  purchases: 'SELECT, INSERT',
  purchase_events: 'SELECT, INSERT',
  // Sealed at intake, destroyed when an operator resolution ends the purchase (fenced-update.ts);
  // the gateway can neither open them nor read them back.
  wallet_secrets: 'INSERT, SELECT (purchase_id, destroyed_at), UPDATE (ciphertext, wrapped_key, destroyed_at)',
  signed_externals: 'SELECT, INSERT',
  // The outbox trigger writes an event for every status change, the gateway's included.
  webhook_events: 'SELECT, INSERT',
  webhook_deliveries: 'SELECT',
  webhook_endpoints: 'SELECT, INSERT, UPDATE',
  admin_actions: 'SELECT, INSERT',
  leases: 'SELECT',
  upstream_format_errors: 'SELECT',
};

/**
 * Creates the gateway's role if missing (LOGIN, nothing else) and grants it only what the gateway
 * writes (GATEWAY_TABLE_PRIVILEGES, and on `purchases` only GATEWAY_PURCHASE_UPDATE_COLUMNS), so a
 * stolen gateway cannot rewrite what the worker will sign. Idempotent, run by the owner after the
 * migrations; a table a later migration adds gets no privilege here until listed.
 */
export async function grantGatewayRole(ownerUrl: string, role: ServiceRole): Promise<void> {
  await grantRole(ownerUrl, role, 'gateway', async (client, ident) => {
    for (const [table, privileges] of Object.entries(GATEWAY_TABLE_PRIVILEGES))
      await client.query(`GRANT ${privileges} ON ${quoteIdent(table)} TO ${ident}`);
    await client.query(
      `GRANT UPDATE (${GATEWAY_PURCHASE_UPDATE_COLUMNS.map(quoteIdent).join(', ')}) ON purchases TO ${ident}`,
    );
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${ident}`);
  });
}
