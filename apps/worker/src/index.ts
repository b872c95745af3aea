/** What other workspaces may use of the worker in-process: its composition root, the test harness and bench:pipeline. */
export { loadWorkerConfig } from './config';
export type { WorkerConfig } from './config';
export { loadPriceRefresherConfig } from './prices/price-refresher';
export { createWorker } from './create-worker';
export type { CreatedWorker, WorkerParts } from './create-worker';
export { createPurchaseProcessor } from './purchases/purchase-processor';
export type { PurchaseProcessorDeps } from './purchases/purchase-processor';
export { startPurchaseWorker } from './purchases/purchase-worker';
export { sharedCallObserver } from './purchases/shared-call';
export { Sweeper } from './sweeper/sweeper';
export { createWorkerMetrics } from './observability/worker-metrics';
export type { WorkerMetrics } from './observability/worker-metrics';
export { WORKER_VARIABLES } from './config';
