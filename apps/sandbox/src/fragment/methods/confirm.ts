import { verifyConfirmBoc } from '../confirm-verifier';
import { FragmentErrors } from '../errors';
import { fail, HANG, type MethodHandler } from './context';
import { sessionOrder } from './link';

/**
 * `confirmReq` (docs/fragment-protocol.md §8.1, §14.3): binds the signed external message to
 * the order. Fault modes: lost (ok but not recorded), timeout (hang, not
 * recorded), timeout_recorded (recorded, then hang), error.
 */
export const confirmReq: MethodHandler = async (call) => {
  const { sim, auth, body } = call;
  const cfg = sim.config();
  if (!auth.loggedIn || !auth.walletConnected) return fail(FragmentErrors.accessDenied);
  const found = sessionOrder(call, undefined);
  if ('error' in found) return found;
  const order = found;
  switch (cfg.faults.confirm) {
    case 'error':
      return fail(cfg.faults.confirmErrorText);
    case 'lost':
      return { ok: true };
    case 'timeout':
      return HANG;
    default:
      break;
  }
  const check = await verifyConfirmBoc(body['boc'], order, cfg.strictConfirm, (owner) =>
    sim.chain.getJettonWalletAddress(owner),
  );
  if (!check.ok) return { error: FragmentErrors.invalidTransaction, reason: check.reason };
  sim.orders.recordConfirm(order, check.externalHash);
  if (cfg.faults.confirm === 'timeout_recorded') return HANG;
  return { ok: true };
};
