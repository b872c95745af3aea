import { cloudflarePageKind } from './cloudflare';
import { FragmentError } from './errors';
import { adoptMode, echoFlowState, flowReferer, type FlowState } from './flow-state';
import { encodeForm, type FormFields } from './form';
import { pageLoggedIn, parseAjInit, parseWalletInit, unescapeHtml } from './html-parsing';
import { fragmentPack } from './products';
import type { PersistedCookies } from './cookie-store';
import type { ApiHashCache } from './session';
import { sleep, withRetries, type FragmentLogger, type RetryPolicy, type Transport } from './transport';
import type { FragmentProduct } from './types';

/** Texts that mean "this hash/session was not accepted": re-read the page once, then retry once. */
const HASH_REJECTION = /^(access denied|bad request)\.?$/i;
/**
 * A link call's "Unknown error", which a page refresh cures in public clients (a stale hash or
 * page state, docs/fragment-protocol.md §19.4): the same one re-read, then the error stands.
 */
const LINK_STALE_PAGE = /^unknown error\.?$/i;

export type PageInfo = ReturnType<typeof parseAjInit> & { apiHash: string };

/**
 * The cookie session's pages and API hash: page GETs (adopting their flow state), API calls with
 * the current hash, and the one re-read of the page for a fresh hash when Fragment rejects it.
 */
export class ApiSession {
  /** The product of the last API call: confirm's Referer when the caller names none. */
  lastProduct: FragmentProduct = 'stars';

  constructor(
    private readonly transport: Transport,
    private readonly hash: ApiHashCache,
    private readonly flows: Record<FragmentProduct, FlowState>,
    private readonly retryPolicy: RetryPolicy,
    private readonly logger: FragmentLogger,
    /** The client holds a Telegram login cookie: a logged-out page then means the login is dead. */
    private readonly expectsLogin: boolean,
    /** The login's cookies as every replica last received them (docs/fragment-protocol.md §20.2). */
    private readonly cookies?: PersistedCookies,
  ) {}

  /** A read: retried on 429/5xx/network/timeout per the policy. */
  read(
    product: FragmentProduct,
    method: string,
    fields: FormFields,
    guard?: () => Promise<void>,
  ): Promise<Record<string, unknown>> {
    return withRetries(method, this.retryPolicy, this.logger, sleep, () =>
      this.call(product, method, fields, 'read', guard),
    );
  }

  /**
   * One API call with the session hash. If Fragment rejects the hash ("Access denied" / "Bad
   * request"), the page is read again for a fresh hash and the call is repeated once — safe for
   * writes too, since the rejection is definitive.
   */
  async call(
    product: FragmentProduct,
    method: string,
    fields: FormFields,
    kind: 'read' | 'write',
    /** A flow's lease check (`FragmentClient.exclusive`), run right before each request is sent. */
    guard?: () => Promise<void>,
  ): Promise<Record<string, unknown>> {
    this.lastProduct = product;
    const body = encodeForm(method, fields);
    const referer = flowReferer(product, this.flows[product]);
    const hash = this.hash.current() ?? (await this.refreshHash(product));
    await guard?.();
    await this.cookies?.pull();
    const first = await this.transport.postApi(hash, method, body, referer, kind === 'write');
    const stalePage = method === fragmentPack(product).link && errorMatches(first, LINK_STALE_PAGE);
    if (!errorMatches(first, HASH_REJECTION) && !stalePage) return first;
    this.logger.info(`fragment ${method}: hash/session rejected, re-reading ${fragmentPack(product).page}`);
    this.hash.invalidate();
    const fresh = await this.refreshHash(product);
    await guard?.();
    await this.cookies?.pull();
    return this.transport.postApi(fresh, method, body, referer, kind === 'write');
  }

  private async refreshHash(product: FragmentProduct): Promise<string> {
    // Not retried on its own: a read's retry loop already covers the whole call, and a write
    // surfaces the (retryable) failure to its caller before anything was sent.
    await this.loadPage(product, false);
    const hash = this.hash.current();
    if (hash === undefined)
      throw new FragmentError('SESSION_INVALID', 'Fragment: no API hash available', {
        method: `GET ${fragmentPack(product).page}`,
      });
    return hash;
  }

  /**
   * GETs a product page (retried as a read), stores its cookies and API hash, and adopts its
   * `ajInit` state (mode/lv/dh) when present. A page without `api?hash=` means the login is dead.
   */
  async loadPage(product: FragmentProduct, retry = true): Promise<string> {
    const path = fragmentPack(product).page;
    const label = `GET ${path}`;
    const page = await this.getPage(path, retry);
    const info = assertPageUsable(label, page, this.expectsLogin);
    this.hash.store(info.apiHash);
    const flow = this.flows[product];
    adoptMode(flow, info.state.mode);
    echoFlowState(flow, info.state);
    const wallet = parseWalletInit(page.body);
    this.logger.debug(
      `fragment ${label}: hash read, version ${info.version ?? '?'}, wallet ${wallet?.address ? 'connected' : 'none'}`,
    );
    return page.body;
  }

  /** GET of any page of the site, retried as a read. */
  getPage(path: string, retry = true): Promise<{ status: number; body: string }> {
    const get = async () => {
      await this.cookies?.pull();
      return this.transport.getPage(path);
    };
    return retry ? withRetries(`GET ${path}`, this.retryPolicy, this.logger, sleep, get) : get();
  }
}

function errorMatches(json: Record<string, unknown>, pattern: RegExp): boolean {
  return typeof json.error === 'string' && pattern.test(unescapeHtml(json.error).trim());
}

/**
 * The page's hash and state, if the page can be used: it has an API hash and, when `requireLogin`,
 * shows a live login. A page without `api?hash=` means Cloudflare stopped us or the session is
 * dead; a page with one may still be logged out (logged-out pages carry the hash too), which only
 * its auth state tells.
 */
export function assertPageUsable(
  label: string,
  page: { status: number; body: string },
  requireLogin: boolean,
): PageInfo {
  const info = parseAjInit(page.body);
  if (info.apiHash !== undefined && !(requireLogin && pageLoggedIn(page.body) === false))
    return { ...info, apiHash: info.apiHash };
  if (info.apiHash !== undefined) {
    throw new FragmentError('SESSION_INVALID', `Fragment ${label}: logged-out page (login cookies dead or missing)`, {
      method: label,
      httpStatus: page.status,
    });
  }
  const stop = cloudflarePageKind(page.body);
  if (stop !== undefined) {
    throw new FragmentError('CLOUDFLARE', `Fragment ${label}: Cloudflare ${stop} page`, {
      method: label,
      httpStatus: page.status,
      cloudflare: stop,
    });
  }
  throw new FragmentError('SESSION_INVALID', `Fragment ${label}: page without api hash (logged out or cookies dead)`, {
    method: label,
    httpStatus: page.status,
  });
}
