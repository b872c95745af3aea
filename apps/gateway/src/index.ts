/** What other workspaces may use of the gateway: building it in-process (benches, tests). */
export { buildGateway } from './app';
export type { Gateway, GatewayDeps } from './app';
export { loadGatewayConfig } from './config';
export type { GatewayConfig } from './config';
export { createGatewayMetrics } from './observability/metrics';
export type { GatewayMetrics } from './observability/metrics';
export { answerMalformedRequests } from './http/malformed-requests';
export { GATEWAY_VARIABLES } from './config';
