import { Address } from '@ton/core';
import type { FragmentSimulatorConfig } from './config';
import type { SimProduct } from './products/pack';
import { simProducts } from './products/registry';
import type { SeededRandom } from './random';

export type Product = SimProduct;

/** Per-session, per-product page state (docs/fragment-protocol.md §14.3). */
export interface FlowState {
  /** Rate (micro-USD/TON) at the last `update…State`/`update…Prices`; undefined = never synced. */
  syncedRateMicro?: bigint;
  /** Incremented whenever the visible state changes (`lv`). */
  lv: number;
  /** The order shown by `update…State` (last initialised one). */
  currentReqId?: string;
}

export interface Session {
  ssid: string;
  hash: string;
  hashIssuedAt: number;
  /** TonConnect ton_proof challenge shown in `Wallet.init`. */
  tonProof: string;
  /** recipient token → username, for tokens issued in this session. */
  recipients: Map<string, string>;
  flows: Record<Product, FlowState>;
  /** The product of a flow start (`update…State` with `mode: "new"`) with no state sync or init since. */
  flowStart?: Product;
  createdAt: number;
}

/** Auth as derived from the request cookies. */
export interface AuthState {
  /** `stel_token` present and accepted. */
  loggedIn: boolean;
  /** `stel_ton_token` present and accepted. */
  walletConnected: boolean;
  /** Wallet bound to the accepted `stel_ton_token`, if known. */
  wallet?: Address;
  /** A cookie is present but no longer accepted, or the session-expiry switch is on: the login is dead. */
  dead: boolean;
}

const SSID = /^[0-9a-f]{10,40}_[0-9]{5,24}$/;

/** In-memory cookie sessions keyed by `stel_ssid`, plus the accepted login tokens. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly issuedStelTokens = new Set<string>();
  private readonly issuedTonTokens = new Map<string, Address>();
  /** Every `stel_ton_token` of a login whose token rotated → that login's current and previous one. */
  private readonly tonLineages = new Map<string, { current: string; previous?: string }>();
  /** Inits refused by the strictFlow fault: flows that interleaved or did not start anew. */
  strictFlowRejections = 0;

  constructor(
    private readonly config: () => FragmentSimulatorConfig,
    private readonly clock: () => number,
    private readonly random: SeededRandom,
  ) {}

  /** A fresh `stel_ssid` in Fragment's shape: hex, `_`, digits. */
  newSsid(): string {
    const digits = BigInt('0x' + this.random.hex(8, 'ssid-digits'))
      .toString()
      .padStart(19, '0')
      .slice(0, 19);
    return `${this.random.hex(9, 'ssid')}_${digits}`;
  }

  isValidSsid(ssid: string | undefined): ssid is string {
    return !!ssid && SSID.test(ssid);
  }

  get(ssid: string | undefined): Session | undefined {
    return ssid ? this.sessions.get(ssid) : undefined;
  }

  /** Finds or creates the session for a (well-formed) ssid — a copied browser cookie is adopted. */
  ensure(ssid: string): Session {
    let session = this.sessions.get(ssid);
    if (!session) {
      const now = this.clock();
      session = {
        ssid,
        hash: this.random.hex(9, 'hash'),
        hashIssuedAt: now,
        tonProof: this.random.hex(9, 'ton-proof'),
        recipients: new Map(),
        flows: Object.fromEntries(simProducts().map((product) => [product, { lv: 0 }])) as Record<Product, FlowState>,
        createdAt: now,
      };
      this.sessions.set(ssid, session);
    }
    return session;
  }

  /** Rotates the hash when it is older than the rotation period (called on page GETs). */
  refreshHash(session: Session): void {
    if (this.hashExpired(session)) {
      session.hash = this.random.hex(9, 'hash');
      session.hashIssuedAt = this.clock();
    }
  }

  hashExpired(session: Session): boolean {
    const rotation = this.config().hashRotationMs;
    return rotation > 0 && this.clock() - session.hashIssuedAt >= rotation;
  }

  /** The hash check of `/api?hash=`: this session's current, unexpired hash only. */
  checkHash(session: Session | undefined, hash: string | undefined): boolean {
    return !!session && !!hash && hash === session.hash && !this.hashExpired(session);
  }

  issueStelToken(token: string): void {
    this.issuedStelTokens.add(token);
  }

  issueTonToken(token: string, wallet: Address): void {
    this.issuedTonTokens.set(token, wallet);
  }

  /**
   * Issues a fresh `stel_ton_token` for the login that sent `token` (same wallet): the one before
   * it stays accepted, older ones of that login are refused from now on (rotateCookies fault).
   */
  rotateTonToken(token: string, wallet: Address): string {
    const lineage = this.tonLineages.get(token) ?? { current: token };
    const fresh = this.random.hex(24, 'ton-token-rotation');
    lineage.previous = lineage.current;
    lineage.current = fresh;
    this.tonLineages.set(token, lineage);
    this.tonLineages.set(fresh, lineage);
    this.issuedTonTokens.set(fresh, wallet);
    return fresh;
  }

  revokeAll(): void {
    this.issuedStelTokens.clear();
    this.issuedTonTokens.clear();
  }

  auth(cookies: Record<string, string>): AuthState {
    const cfg = this.config();
    const stel = cookies['stel_token'];
    const ton = cookies['stel_ton_token'];
    const stelOk = !!stel && (cfg.acceptedStelTokens.includes(stel) || this.issuedStelTokens.has(stel));
    let wallet: Address | undefined;
    let tonOk = false;
    if (ton) {
      const configured = cfg.acceptedTonTokens[ton];
      if (configured !== undefined) {
        tonOk = true;
        wallet = parseAddressLoose(configured);
      } else if (this.issuedTonTokens.has(ton)) {
        tonOk = true;
        wallet = this.issuedTonTokens.get(ton);
      }
    }
    const lineage = ton ? this.tonLineages.get(ton) : undefined;
    if (lineage && ton !== lineage.current && ton !== lineage.previous) tonOk = false;
    const killed = (cfg.faults.deadSessions ?? []).includes(cookies['stel_ssid'] ?? '');
    const dead = cfg.faults.sessionExpired || killed || (!!stel && !stelOk) || (!!ton && !tonOk);
    return { loggedIn: stelOk && !dead, walletConnected: tonOk && !dead, wallet, dead };
  }
}

export function parseAddressLoose(text: string | undefined): Address | undefined {
  if (!text) return undefined;
  try {
    return Address.parse(text);
  } catch {
    return undefined;
  }
}
