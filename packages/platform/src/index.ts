export * from './config/env-reader';
export * from './config/shared-config';
export * from './logging';
export * from './queue/purchase-queue';
export * from './process/service-lifecycle';
export * from './queue/webhook-queue';
