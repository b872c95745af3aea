import type { Logger } from '@starsgate/platform';
import type { WorkerMetrics } from '../../observability/worker-metrics';

export interface FragmentFromMismatch {
  purchaseId: string;
  mode: string;
  paymentMethod: string;
  /** `transaction.from` as Fragment sent it. */
  fragmentFrom: string;
  payer: string;
  /** The USDT transfer was rebuilt through the payer's own jetton wallet. */
  rebuilt: boolean;
  /** FRAGMENT_FROM_MUST_MATCH refused the request. */
  refused: boolean;
}

/**
 * Fragment named another wallet than the payer as `transaction.from` (docs/fragment-protocol.md
 * §17): a log line and the metric, so an operator sees how often the linked wallet and the payer
 * differ and whether the strict rule refused anything.
 */
export class FragmentFromReporter {
  constructor(
    private readonly logger: Logger,
    readonly metrics: Pick<WorkerMetrics, 'fragmentFromMismatches'>,
  ) {}

  report(mismatch: FragmentFromMismatch): void {
    this.logger.info('fragment named another wallet than the payer', {
      purchase_id: mismatch.purchaseId,
      fragment_from: mismatch.fragmentFrom,
      payer: mismatch.payer,
      payment_method: mismatch.paymentMethod,
      rebuilt_through_payer_jetton_wallet: mismatch.rebuilt,
      refused: mismatch.refused,
    });
    this.metrics.fragmentFromMismatches.inc({
      mode: mismatch.mode,
      payment_method: mismatch.paymentMethod,
      outcome: mismatch.refused ? 'refused' : 'accepted',
    });
  }
}
