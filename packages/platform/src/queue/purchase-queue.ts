import { Queue, type ConnectionOptions, type JobsOptions, type RedisOptions } from 'bullmq';
import IORedis, { type Redis } from 'ioredis';
import { currentTraceCarrier, type TraceCarrier } from '../observability/tracing';

export const PURCHASE_QUEUE = 'purchases';
export const PURCHASE_JOB = 'advance';

export interface PurchaseJobData {
  purchaseId: string;
  /** The trace context of whoever enqueued it (tracing on only), so the job continues that trace. */
  trace?: TraceCarrier;
}

/** A job's data: the id, and the active trace context when tracing is on. */
function jobData(purchaseId: string, trace = currentTraceCarrier()): PurchaseJobData {
  return trace ? { purchaseId, trace } : { purchaseId };
}

/**
 * One job id per (purchase, row version): BullMQ ignores an add whose id exists, so duplicate
 * enqueues of the same step collapse, and the next step (a new version) gets a fresh job.
 * Ids must not contain `:`.
 */
export function purchaseJobId(purchaseId: string, version: number): string {
  return `p-${purchaseId}-v${version}`;
}

/** The row version a job was enqueued for (from its id); undefined for an id of another shape. */
export function purchaseJobVersion(jobId: string | undefined): number | undefined {
  const match = jobId ? /-v(\d+)$/.exec(jobId) : null;
  return match ? Number(match[1]) : undefined;
}

export const PURCHASE_JOB_OPTIONS: JobsOptions = {
  // Attempts and backoff live in PostgreSQL; BullMQ only dispatches.
  attempts: 1,
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

export function createRedisConnection(url: string, options: { forWorker?: boolean } = {}): Redis {
  return new IORedis(url, {
    // BullMQ workers need blocking commands that never give up; producers fail fast.
    maxRetriesPerRequest: options.forWorker ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

/**
 * ioredis options for a Redis URL. BullMQ closes connections it builds from options itself,
 * whereas a shared ioredis instance passed in stays open after `close()`.
 */
export function redisConnectionOptions(url: string, options: { forWorker?: boolean } = {}): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: options.forWorker ? null : 3,
  };
}

/**
 * A Redis URL gives the queue its own connection, closed with the queue. Connection errors are
 * passed to `onError`: without a listener, an 'error' event (Redis restarting, or a queue closed
 * while still connecting) would crash the process. The commands that meet the error fail too.
 */
export function createQueue<T>(
  name: string,
  defaultJobOptions: JobsOptions,
  connection: string | ConnectionOptions,
  prefix?: string,
  onError: (error: Error) => void = () => undefined,
): Queue<T> {
  const queue = new Queue<T>(name, {
    connection: typeof connection === 'string' ? redisConnectionOptions(connection) : connection,
    prefix,
    defaultJobOptions,
  });
  queue.on('error', onError);
  return queue;
}

export function createPurchaseQueue(
  connection: string | ConnectionOptions,
  prefix?: string,
  onError?: (error: Error) => void,
): Queue<PurchaseJobData> {
  return createQueue<PurchaseJobData>(PURCHASE_QUEUE, PURCHASE_JOB_OPTIONS, connection, prefix, onError);
}

/**
 * Closes a queue without tripping BullMQ's close-while-connecting race (taskforcesh/bullmq#3546):
 * a queue closed before its connection is ready later emits the failed connection attempt as an
 * 'error' on an emitter whose listeners close() already removed, an unhandled error that fails a
 * test run or a shutdown. So it waits for the connection first, up to `readyWithinMs` (Redis may
 * be down; the queue is closed anyway then).
 */
export async function closeQueue(queue: Queue, readyWithinMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, readyWithinMs);
  });
  await Promise.race([
    queue.waitUntilReady().then(
      () => undefined,
      () => undefined,
    ),
    gaveUp,
  ]);
  clearTimeout(timer);
  await queue.close();
}

export async function enqueuePurchase(
  queue: Queue<PurchaseJobData>,
  purchaseId: string,
  version: number,
  delayMs = 0,
  options: { newPurchase?: boolean } = {},
): Promise<void> {
  await queue.add(PURCHASE_JOB, jobData(purchaseId), {
    jobId: purchaseJobId(purchaseId, version),
    delay: delayMs > 0 ? delayMs : undefined,
    ...startPriority(options.newPurchase),
  });
}

/**
 * BullMQ hands out unprioritized jobs before prioritized ones. A new purchase's first job gets a
 * priority, so the next steps of purchases already under way (send, confirm, poll) go first:
 * a burst of new orders cannot hold every worker slot while a wallet's sender waits behind them.
 */
const NEW_PURCHASE_PRIORITY = 1;

function startPriority(newPurchase: boolean | undefined): { priority?: number } {
  return newPurchase ? { priority: NEW_PURCHASE_PRIORITY } : {};
}

/**
 * Many jobs in one Redis round trip (BullMQ sends the adds as one MULTI): new purchases' first
 * jobs from the gateway, or the next steps of a batch's members from the worker.
 */
export async function enqueuePurchases(
  queue: Queue<PurchaseJobData>,
  purchases: ReadonlyArray<{ purchaseId: string; version: number; delayMs?: number; trace?: TraceCarrier }>,
  options: { newPurchase?: boolean } = {},
): Promise<void> {
  if (purchases.length === 0) return;
  await queue.addBulk(
    purchases.map(({ purchaseId, version, delayMs = 0, trace }) => ({
      name: PURCHASE_JOB,
      data: jobData(purchaseId, trace ?? currentTraceCarrier()),
      opts: {
        jobId: purchaseJobId(purchaseId, version),
        ...(delayMs > 0 ? { delay: delayMs } : {}),
        ...startPriority(options.newPurchase),
      },
    })),
  );
}
