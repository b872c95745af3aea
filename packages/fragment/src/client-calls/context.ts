import type { ApiSession } from '../api-session';
import type { FlowState } from '../flow-state';
import type { FragmentLogger } from '../transport';
import type { FragmentProduct, TonConnectDevice } from '../types';

/**
 * What a `FragmentClient`'s calls share (client.ts builds it once): the login's API session, the
 * page's flow state per product, and the lease check of the call that holds the flow.
 */
export interface ClientContext {
  readonly api: ApiSession;
  readonly flows: Record<FragmentProduct, FlowState>;
  readonly logger: FragmentLogger;
  /** Re-syncs on "Price was changed" before init gives up. */
  readonly priceChangedRetries: number;
  /** TonConnect device sent with link/confirm when the call gives none. */
  readonly device: TonConnectDevice;
  /**
   * Set while a call or flow holds the session's lease (`leases`): checked before each request
   * that moves the page's flow state, so a holder whose lease expired sends nothing more.
   */
  readonly lease: { guard: (() => Promise<void>) | undefined };
}
