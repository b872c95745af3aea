import { createHash } from 'node:crypto';
import { Address, Cell, contractAddress, loadStateInit } from '@ton/core';
import { verifyEd25519 } from '@starsgate/ton';
import { setCookie } from '../cookies';
import { FragmentErrors } from '../errors';
import { type CallContext, fail, type MethodHandler } from './context';
import { jsonField, textOf } from './link';

/** TonConnect proofs older than this are rejected. */
const PROOF_MAX_AGE_S = 15 * 60;

/**
 * Test `logIn`: `auth` = base64 of the URL-encoded Telegram Login Widget user
 * JSON (docs/fragment-protocol.md §4). The widget signature is not checked (sandbox); any user
 * with a numeric `id` gets a `stel_token`.
 */
export const logIn: MethodHandler = (call) => {
  if (!call.sim.config().allowTestLogIn) return fail(FragmentErrors.accessDenied);
  let user: Record<string, unknown> | undefined | null;
  try {
    const decoded = Buffer.from(call.body['auth'] ?? '', 'base64').toString('utf8');
    user = jsonField(decodeURIComponent(decoded));
  } catch {
    user = null;
  }
  const id = user?.['id'];
  if (!user || (typeof id !== 'number' && !(typeof id === 'string' && /^\d+$/.test(id))))
    return fail(FragmentErrors.badRequest);
  const token = call.sim.random.derive(`stel_token:${id}`, 32).toString('hex');
  call.sim.sessions.issueStelToken(token);
  setCookie(call.res, 'stel_token', token);
  return { ok: true };
};

/** The TonConnect `ton_proof` message hash (TON Connect spec: ton-proof-item-v2). */
export function tonProofHash(address: Address, domain: string, timestamp: bigint, payload: string): Buffer {
  const wc = Buffer.alloc(4);
  wc.writeInt32BE(address.workChain);
  const domainBytes = Buffer.from(domain, 'utf8');
  const domainLen = Buffer.alloc(4);
  domainLen.writeUInt32LE(domainBytes.length);
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64LE(timestamp);
  const message = Buffer.concat([
    Buffer.from('ton-proof-item-v2/'),
    wc,
    address.hash,
    domainLen,
    domainBytes,
    ts,
    Buffer.from(payload, 'utf8'),
  ]);
  const inner = createHash('sha256').update(message).digest();
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from('ton-connect'), inner]))
    .digest();
}

/**
 * `checkTonProofAuth` with `account`, `device`, `proof`: checks the StateInit
 * matches the address, the proof payload is this session's `ton_proof`
 * challenge, the timestamp is fresh and the ed25519 signature verifies with
 * `account.publicKey`. Success sets `stel_ton_token` bound to the wallet.
 */
export const checkTonProofAuth: MethodHandler = (call) => {
  const { sim, session, body } = call;
  const account = jsonField(body['account']);
  const proof = jsonField(body['proof']);
  if (!account || !proof) return fail(FragmentErrors.badRequest);
  try {
    const address = Address.parse(String(account['address']));
    const publicKey = Buffer.from(textOf(account['publicKey']), 'hex');
    if (publicKey.length !== 32) return fail(FragmentErrors.verifyFailed);
    const stateInitB64 = textOf(account['walletStateInit']);
    if (stateInitB64) {
      const init = loadStateInit(Cell.fromBase64(stateInitB64).beginParse());
      if (!contractAddress(address.workChain, init).equals(address)) return fail(FragmentErrors.verifyFailed);
    }
    const domain = proof['domain'] as { value?: unknown } | undefined;
    const domainValue = textOf(domain?.value);
    const timestamp = BigInt(textOf(proof['timestamp'], '0'));
    const payload = textOf(proof['payload']);
    const signature = Buffer.from(textOf(proof['signature']), 'base64');
    if (payload !== session.tonProof) return fail(FragmentErrors.verifyFailed);
    const age = Math.abs(Math.floor(sim.clock() / 1000) - Number(timestamp));
    if (age > PROOF_MAX_AGE_S) return fail(FragmentErrors.verifyFailed);
    if (!verifyEd25519(tonProofHash(address, domainValue, timestamp, payload), signature, publicKey))
      return fail(FragmentErrors.verifyFailed);
    const token = sim.random.base64url(120, 'stel_ton_token');
    sim.sessions.issueTonToken(token, address);
    setCookie(call.res, 'stel_ton_token', token);
    return { verified: true };
  } catch {
    return fail(FragmentErrors.verifyFailed);
  }
};

export const logOut: MethodHandler = (call) => {
  call.res.append('Set-Cookie', 'stel_token=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/');
  return { ok: true };
};

export const tonLogOut: MethodHandler = (call) => {
  call.res.append('Set-Cookie', 'stel_ton_token=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/');
  return { ok: true };
};

export type { CallContext };
