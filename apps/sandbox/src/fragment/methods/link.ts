import { Address } from '@ton/core';
import { encodePayload } from '../comment-payload';
import { FragmentErrors } from '../errors';
import { buildJettonTransfer } from '../jetton-payload';
import type { Order } from '../orders';
import { parseDecimal } from '../decimal';
import type { SimProductPack } from '../products/pack';
import type { Product } from '../sessions';
import { type CallContext, fail } from './context';

/** A scalar JSON value as text; anything else (absent, object, array) as `fallback`. */
export function textOf(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return fallback;
}

/** Parses a JSON form field (`account`, `device`); undefined when absent, null when malformed. */
export function jsonField(value: string | undefined): Record<string, unknown> | undefined | null {
  if (value === undefined || value === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The session's order for `id`, or the error to answer. */
export function sessionOrder(call: CallContext, product: Product | undefined): Order | { error: string } {
  const order = call.sim.orders.get(call.body['id']);
  if (!order || (product && order.product !== product)) return fail(FragmentErrors.requestNotFound);
  if (order.ssid !== call.session.ssid) return fail(FragmentErrors.accessDenied);
  if (order.status === 'expired') return fail(FragmentErrors.requestExpired);
  return order;
}

/** `get…Link` of a product (docs/fragment-protocol.md §5.4): the TonConnect transaction paying the order. */
export async function linkFor(call: CallContext, pack: SimProductPack): Promise<Record<string, unknown>> {
  const { sim, auth, body } = call;
  const cfg = sim.config();
  if (!auth.loggedIn) return fail(FragmentErrors.accessDenied);
  const found = sessionOrder(call, pack.product);
  if ('error' in found) return found;
  const order = found;
  if (order.status !== 'pending' || order.payment) return fail(FragmentErrors.requestProcessed);
  if (order.paymentMethod !== 'ton' && order.paymentMethod !== 'usdt_ton') return { ok: true, evm: true };
  if (!auth.walletConnected) return fail(FragmentErrors.accessDenied);
  if (cfg.faults.needVerify) {
    return {
      need_verify: true,
      popup: `<div class="popup-body"><section><h2>Verification required</h2><p>To buy ${pack.title}, please verify your identity at <a href="https://fragment.com/kyc/account">fragment.com/kyc/account</a>.</p></section></div>`,
    };
  }
  // The legacy QR mode (docs/fragment-protocol.md §5.4) is not simulated.
  if (body['transaction'] !== '1') return fail(FragmentErrors.badRequest);

  const account = jsonField(body['account']);
  if (account === null) return fail(FragmentErrors.badRequest);
  let sent: Address | undefined;
  if (account) {
    try {
      sent = Address.parse(textOf(account['address']));
    } catch {
      return fail(FragmentErrors.badRequest);
    }
  }
  // docs/fragment-protocol.md §17: the wallet linked to the account, or the account sent.
  const mode = cfg.faults.transactionFromBySession?.[call.session.ssid] ?? cfg.faults.transactionFrom;
  const from = mode === 'linked' ? (auth.wallet ?? sent) : (sent ?? auth.wallet);
  if (!from) return fail(FragmentErrors.accessDenied);

  const validUntil = sim.chain.now() + cfg.validitySeconds;
  const receiver = cfg.faults.unknownReceiver ? sim.receivers.unknown : order.receiver;
  if (order.paymentMethod === 'ton') {
    order.message = {
      address: receiver,
      addressText: receiver.toString({ bounceable: false, urlSafe: true }),
      amount: order.quote.tonNano,
      payload: order.commentCell,
      payloadText: encodePayload(order.commentCell),
    };
  } else {
    const jettonWallet = await sim.chain.getJettonWalletAddress(from);
    const payload = buildJettonTransfer({
      queryId: order.queryId,
      amount: order.quote.usdtUnits,
      destination: receiver,
      responseDestination: from,
      forwardTonAmount: BigInt(cfg.jettonForwardNano),
      forwardPayload: order.commentCell,
    });
    order.message = {
      address: jettonWallet,
      addressText: jettonWallet.toString({ bounceable: true, urlSafe: true }),
      amount: parseDecimal(cfg.usdtMessageTon, 9),
      payload,
      payloadText: encodePayload(payload),
    };
  }
  order.from = from;
  order.anyPayer = mode === 'linked';
  order.confirmNotRequested = cfg.faults.omitConfirmMethod;
  order.validUntil = validUntil;
  order.expiresAt = validUntil;
  sim.orders.changed();
  return {
    ok: true,
    transaction: {
      validUntil,
      from: from.toRawString(),
      messages: [
        {
          address: order.message.addressText,
          amount: order.message.amount.toString(),
          payload: order.message.payloadText,
        },
      ],
    },
    ...(cfg.faults.omitConfirmMethod ? {} : { confirm_method: 'confirmReq', confirm_params: { id: order.reqId } }),
  };
}
