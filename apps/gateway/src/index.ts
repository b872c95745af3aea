/** What other workspaces may use of the gateway: building it in-process (benches, tests). */
export { createGateway } from './create-gateway';
export type { CreatedGateway, GatewayParts } from './create-gateway';
export type { Gateway, GatewayDeps } from './app';
export { loadGatewayConfig } from './config';
export type { GatewayConfig } from './config';
export { createGatewayMetrics } from './observability/metrics';
export type { GatewayMetrics } from './observability/metrics';
export { answerMalformedRequests } from './http/malformed-requests';
/** An admin token's public name in audit records (`token:<id>` is the actor of its actions). */
export { adminTokenId } from './admin/admin-token-id';
export { GATEWAY_VARIABLES } from './config';
