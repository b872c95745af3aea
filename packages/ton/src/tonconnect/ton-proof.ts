import { createHash } from 'node:crypto';
import type { Address } from '@ton/core';
import { verifyEd25519 } from '../keys/ed25519';

/** TON Connect's `ton_proof` reply (`TonProofItemReplySuccess.proof`), as the wallet returned it. */
export interface TonProof {
  /** Unix seconds when the wallet signed. */
  timestamp: number;
  /** The dApp's domain the wallet showed its user (the manifest URL's host). */
  domain: { lengthBytes: number; value: string };
  /** What the dApp asked the wallet to sign: a payload the gateway issued. */
  payload: string;
  /** Base64 ed25519 signature. */
  signature: string;
}

export type TonProofFault = 'domain' | 'timestamp' | 'signature';

const ITEM_PREFIX = Buffer.from('ton-proof-item-v2/');
const CONNECT_PREFIX = Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from('ton-connect')]);

/**
 * The bytes a wallet signs for a `ton_proof` (TON Connect's "Address proof signature"):
 * sha256(0xffff ‖ "ton-connect" ‖ sha256("ton-proof-item-v2/" ‖ workchain (int32 BE) ‖ address hash
 * ‖ domain length (uint32 LE) ‖ domain ‖ timestamp (uint64 LE) ‖ payload)) (docs/ton.md, "ton_proof").
 */
export function tonProofSignedBytes(address: Address, proof: Omit<TonProof, 'signature'>): Buffer {
  const workchain = Buffer.alloc(4);
  workchain.writeInt32BE(address.workChain);
  const domain = Buffer.from(proof.domain.value, 'utf8');
  const domainLength = Buffer.alloc(4);
  domainLength.writeUInt32LE(domain.length);
  const timestamp = Buffer.alloc(8);
  timestamp.writeBigUInt64LE(BigInt(proof.timestamp));
  const message = Buffer.concat([
    ITEM_PREFIX,
    workchain,
    address.hash,
    domainLength,
    domain,
    timestamp,
    Buffer.from(proof.payload, 'utf8'),
  ]);
  const messageHash = createHash('sha256').update(message).digest();
  return createHash('sha256').update(CONNECT_PREFIX).update(messageHash).digest();
}

/**
 * Checks a `ton_proof` for `address` whose wallet holds `publicKey`: its domain is one of
 * `domains`, it was signed at most `maxAgeSeconds` ago (and not in the future beyond a minute of
 * clock skew), and the signature verifies. The first fault found, or undefined when it holds. The
 * caller checks that the payload is one it issued.
 */
export function checkTonProof(
  proof: TonProof,
  wallet: { address: Address; publicKey: Buffer },
  rules: { domains: readonly string[]; nowSeconds: number; maxAgeSeconds: number },
): TonProofFault | undefined {
  const domainBytes = Buffer.byteLength(proof.domain.value, 'utf8');
  if (domainBytes !== proof.domain.lengthBytes || !rules.domains.includes(proof.domain.value.toLowerCase()))
    return 'domain';
  if (proof.timestamp > rules.nowSeconds + 60 || proof.timestamp < rules.nowSeconds - rules.maxAgeSeconds)
    return 'timestamp';
  const signature = Buffer.from(proof.signature, 'base64');
  if (signature.length !== 64) return 'signature';
  return verifyEd25519(tonProofSignedBytes(wallet.address, proof), signature, wallet.publicKey)
    ? undefined
    : 'signature';
}
