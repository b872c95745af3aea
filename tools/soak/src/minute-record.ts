import type { MinuteCalls } from './http-client';
import type { DriverMinute } from './load-driver';
import type { ConnectionCounts } from './samplers/postgres-connections';
import type { ProcessSample } from './samplers/process-sample';
import type { RedisSample } from './samplers/redis-memory';
import type { StatusCounts } from './samplers/backlog';
import type { DelaySample } from './samplers/reference-process';

/** A process of the stack as the report names it (`gateway-1`, `worker-1`, `sandbox`). */
export interface ReportedProcess {
  name: string;
  kind: 'gateway' | 'worker' | 'sandbox';
}

/** Everything measured over one minute of the run. */
export interface MinuteRecord {
  minute: number;
  phase: 'load' | 'drain';
  /** Seconds the record covers (a drain's last one may be short). */
  seconds: number;
  loadAverage: number[];
  /** By process name. */
  processes: Record<string, ProcessSample>;
  /** Event-loop delay of an idle Node.js process on the same machine over the minute. */
  reference: DelaySample;
  redisServer: { rssMb: number; cpuPercent: number };
  redis: RedisSample;
  postgres: ConnectionCounts;
  backlog: StatusCounts;
  driver: DriverMinute;
  calls: MinuteCalls;
  webhookDeliveries: number;
}
