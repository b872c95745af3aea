export * from './config/env-reader';
export * from './logging';
export * from './queue/purchase-queue';
export * from './process/service-lifecycle';
export * from './queue/webhook-queue';
export * from './observability/upstream-metrics';
export * from './observability/upstream-health-key';
export * from './observability/prometheus-text';
