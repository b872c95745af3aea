import { WorkerHarness } from './worker-harness';

/**
 * The batching suites' harness, started before a suite's tests and closed after them: no worker
 * until a test starts one (stopped after each test), a busy wallet retried only after a minute, and
 * a 2 s poll interval, so a batch's other members are due well after its first member's poll and
 * that poll settles them all however slowly a loaded test machine runs the jobs.
 */
export function useBatchingHarness(): { harness: WorkerHarness } {
  const suite = {} as { harness: WorkerHarness };
  beforeAll(async () => {
    suite.harness = await WorkerHarness.start({
      worker: false,
      env: { WALLET_BUSY_RETRY_MS: '60000', POLL_INTERVAL_MS: '2000' },
    });
  });
  afterEach(async () => {
    await suite.harness.stopWorker();
  });
  afterAll(async () => {
    await suite.harness?.close();
  });
  return suite;
}
