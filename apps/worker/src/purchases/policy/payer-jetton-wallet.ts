import type { Address } from '@ton/core';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';

/** The payer's USDT jetton wallet: a pure function of master and owner, so one lookup serves a while. */
export function jettonWalletOf(deps: StepDeps, owner: Address): Promise<Address> {
  return sharedCall(
    deps.chain,
    `jetton-wallet:${owner.toRawString()}`,
    { now: deps.now(), maxAgeMs: 10 * 60_000 },
    () => deps.chain.getJettonWalletAddress(deps.config.usdtMaster, owner),
  );
}
