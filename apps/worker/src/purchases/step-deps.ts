import type { Queue } from 'bullmq';
import type {
  CheckoutRepository,
  LeaseRepository,
  PaidLookalikes,
  ParkedPurchases,
  PayerReservations,
  PurchaseTransitions,
  RequestMac,
  SecretVault,
  SignedBatches,
} from '@starsgate/db';
import type { FragmentSessionPool } from '@starsgate/fragment';
import type { Logger, PurchaseJobData } from '@starsgate/platform';
import type { ChainClient } from '@starsgate/ton';
import type { WorkerConfig } from '../config';
import type { TransitionMetrics } from '../observability/transition-metrics';
import type { PayerHistories } from './chain/payer-history';
import type { SharedLook } from './waits/shared-look';
import type { FragmentFromReporter } from './upstream/fragment-from-reporter';
import type { PriceQuoter } from './policy/price-precheck';
import type { UpstreamFormatReporter } from './upstream/upstream-format';

/** Everything a step may touch. Built once per worker process. */
export interface StepDeps {
  config: WorkerConfig;
  transitions: PurchaseTransitions;
  /** A wallet's signed externals and the purchases they pay. */
  signedBatches: SignedBatches;
  /** What the shared looks list and wake. */
  parkedPurchases: ParkedPurchases;
  /** Our paid orders a delivery check must count in Fragment's history. */
  paidLookalikes: PaidLookalikes;
  /** Client-signed checkouts: accepting the BOC their buyer's wallet signed. */
  checkouts: CheckoutRepository;
  leases: LeaseRepository;
  /** The payer's other open orders, whose needs the funds check sets aside (policy/payer-reservation.ts). */
  reservations: PayerReservations;
  vault: SecretVault;
  /** MACs the accepted payment requests; checked before signing (policy/signing-check.ts). */
  requestMac: RequestMac;
  chain: ChainClient;
  /** The checkout watch's reads of payer wallets: incremental, one per payer at a time (docs/security.md, attack 17). */
  payerHistories: PayerHistories;
  /** The operator's Fragment login sessions; purchase flows spread over them. */
  fragment: FragmentSessionPool;
  /**
   * The price book the payer's funds are checked against before any Fragment call, and Fragment's
   * prices of the quoted products after it (MAX_PRICE_TO_BOOK_PERCENT). A purchase it cannot price is
   * refused (PRICES_UNAVAILABLE), never prepared unchecked.
   */
  prices: PriceQuoter;
  queue: Queue<PurchaseJobData>;
  logger: Logger;
  /** Upstream answers of an unknown shape: logs, metric, admin stats (once per session). */
  upstreamFormat: UpstreamFormatReporter;
  /** `transaction.from` other than the payer: log line and metric. */
  fragmentFrom: FragmentFromReporter;
  /** Unique per worker process; lease owners are derived from it. */
  workerId: string;
  /** Wall clock, ms (tests never need to fake it; kept injectable for clarity). */
  now: () => number;
  /**
   * Waits inside a job for an upstream outcome that is due (a batch landing, the rest of a
   * batch's deliveries): the only place a step pauses. Injectable so such waits can be told
   * apart from the service's own time (bench:pipeline).
   */
  sleep: (ms: number) => Promise<void>;
  /**
   * The shared look that wakes purchases parked for Fragment's delivery (delivery/delivery-watch.ts);
   * absent, they poll every POLL_INTERVAL_MS as before.
   */
  deliveryWatch?: SharedLook;
  /**
   * The shared look that wakes checkouts parked for their buyer's payment (chain/checkout-watch.ts);
   * absent, checkouts poll their payer with a backoff as before.
   */
  checkoutWatch?: SharedLook;
  /**
   * The shared look that wakes purchases parked until their broadcast external lands, and
   * rebroadcasts it meanwhile (chain/chain-watch.ts); absent, they poll every POLL_INTERVAL_MS.
   */
  chainWatch?: SharedLook;
  /** Hears every committed status change (the worker's metrics); absent in tests that need none. */
  transitionMetrics?: TransitionMetrics;
}
