import type { Queue } from 'bullmq';
import type { LeaseRepository, PurchaseTransitions, SecretVault } from '@starsgate/db';
import type { FragmentSessionPool } from '@starsgate/fragment';
import type { Logger, PurchaseJobData } from '@starsgate/platform';
import type { ChainClient } from '@starsgate/ton';
import type { WorkerConfig } from '../../config';

/** Everything a step may touch. Built once per worker process. */
export interface StepDeps {
  config: WorkerConfig;
  transitions: PurchaseTransitions;
  leases: LeaseRepository;
  vault: SecretVault;
  chain: ChainClient;
  /** The operator's Fragment login sessions; purchase flows spread over them. */
  fragment: FragmentSessionPool;
  queue: Queue<PurchaseJobData>;
  logger: Logger;
  /** Unique per worker process; lease owners are derived from it. */
  workerId: string;
  /** Wall clock, ms (tests never need to fake it; kept injectable for clarity). */
  now: () => number;
}
