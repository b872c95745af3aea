import type { CreatedGateway } from '@starsgate/gateway';
import type { WorkerHarness } from '@starsgate/worker/testing';

/** The real gateway app on a worker harness's database, Redis, queue, vault and chain, with the operator API on; closed with the harness. */
export function operatorGateway(h: WorkerHarness, adminToken: string): CreatedGateway {
  return h.gateway({ STARSGATE_ADMIN_TOKENS: adminToken });
}
