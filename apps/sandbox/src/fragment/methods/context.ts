import type { Response } from 'express';
import type { FragmentChainView } from '../chain-view';
import type { FragmentSimulatorConfig } from '../config';
import type { RecipientDirectory } from '../directory';
import type { FaultInjector } from '../faults';
import type { OrderBook } from '../orders';
import type { PriceBook } from '../pricing';
import type { Receivers } from '../receivers';
import type { SeededRandom } from '../random';
import type { AuthState, Session, SessionStore } from '../sessions';

/** Everything the method handlers share. */
export interface SimulatorContext {
  config(): FragmentSimulatorConfig;
  /** Wall clock, ms. */
  clock(): number;
  chain: FragmentChainView;
  random: SeededRandom;
  sessions: SessionStore;
  directory: RecipientDirectory;
  prices: PriceBook;
  orders: OrderBook;
  faults: FaultInjector;
  /** Allow-listed receiving addresses, plus the off-list one used by the unknownReceiver fault. */
  receivers: Receivers;
}

/** One `/api` call. */
export interface CallContext {
  sim: SimulatorContext;
  session: Session;
  auth: AuthState;
  cookies: Record<string, string>;
  /** Form fields (last value wins for repeated fields). */
  body: Record<string, string>;
  res: Response;
  host: string;
}

/** Returned by a handler that must not answer (timeout fault). */
export const HANG = Symbol('hang');
export type MethodResult = Record<string, unknown> | typeof HANG;
export type MethodHandler = (call: CallContext) => MethodResult | Promise<MethodResult>;

export const fail = (error: string) => ({ error });
