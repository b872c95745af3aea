import type { ApiSession } from '../api-session';
import type { FlowState } from '../flow-state';
import type { FragmentLogger } from '../transport';
import type { FragmentProduct, TonConnectDevice } from '../types';

/**
 * What a Fragment call needs from the client that makes it: the login's API session, the page
 * flow state per product, and the guard of the session's lease while a call or flow holds it
 * (checked before each request that moves the flow state; undefined without leases).
 */
export interface CallContext {
  readonly api: ApiSession;
  readonly flows: Record<FragmentProduct, FlowState>;
  readonly logger: FragmentLogger;
  readonly device: TonConnectDevice;
  readonly priceChangedRetries: number;
  flowGuard(): (() => Promise<void>) | undefined;
}
