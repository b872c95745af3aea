import type { Request, Response } from 'express';
import type { FragmentSimulatorConfig, MethodFaults, MsRange } from './config';
import { phpJson } from './html';
import type { SeededRandom } from './random';

export type FaultAction =
  | { kind: 'pass' }
  | { kind: 'timeout' }
  | { kind: 'cloudflare' }
  | { kind: 'cloudflare_block' }
  | { kind: 'rate_limit'; retryAfterSeconds: number }
  | { kind: 'server_error'; status: number }
  | { kind: 'error'; text: string };

export const CLOUDFLARE_HTML = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"></head><body><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">fragment.com</h1><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2><noscript><div class="h2">Enable JavaScript and cookies to continue</div></noscript></div></div><script>(function(){window._cf_chl_opt={cType:'managed'};}());</script></body></html>`;

/** Cloudflare's firewall page (error 1020), as a blocked datacenter IP sees it: no challenge to pass. */
export const CLOUDFLARE_BLOCK_HTML = `<!DOCTYPE html><html class="no-js" lang="en-US"><head><title>Attention Required! | Cloudflare</title><meta charset="UTF-8" /></head><body><div id="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper"><div class="cf-wrapper cf-header cf-error-overview"><h1 data-translate="block_headline">Sorry, you have been blocked</h1><h2 class="cf-subheadline"><span data-translate="unable_to_access">You are unable to access</span> fragment.com</h2></div><div class="cf-section cf-wrapper"><p>This website is using a security service to protect itself from online attacks.</p></div><div class="cf-error-footer cf-wrapper"><p>Error code: 1020</p><p><span>Cloudflare Ray ID: <strong class="font-semibold">8f1c2a3b4d5e6f70</strong></span></p></div></div></div></body></html>`;

const CF_RAY = '8f1c2a3b4d5e6f70-FRA';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Transport and business fault injection per method (docs/fragment-protocol.md §14.4). */
export class FaultInjector {
  private readonly hanging = new Set<Response>();

  constructor(
    private readonly config: () => FragmentSimulatorConfig,
    private readonly random: SeededRandom,
  ) {}

  /** Entries that apply to a key: the key's own, then the wildcard (`*` for API methods). */
  private entries(key: string, wildcard: string | undefined): Array<[string, MethodFaults]> {
    const methods = this.config().faults.methods;
    const out: Array<[string, MethodFaults]> = [];
    const own = methods[key];
    if (own) out.push([key, own]);
    if (wildcard && wildcard !== key) {
      const any = methods[wildcard];
      if (any) out.push([wildcard, any]);
    }
    return out;
  }

  latencyMs(key: string, wildcard?: string): number {
    const range: MsRange = this.entries(key, wildcard).find(([, f]) => f.latency)?.[1].latency ?? this.config().latency;
    return this.random.int(range.minMs, range.maxMs);
  }

  /** Draws the fault for one call and spends counted entries. */
  decide(key: string, wildcard?: string): FaultAction {
    const { methods, cloudflareBlock, cloudflareChallenge } = this.config().faults;
    // Host-wide: Cloudflare refuses this client's address for every page and API call alike.
    if (cloudflareBlock) return { kind: 'cloudflare_block' };
    if (cloudflareChallenge) return { kind: 'cloudflare' };
    let action: FaultAction = { kind: 'pass' };
    for (const [entryKey, f] of this.entries(key, wildcard)) {
      if (action.kind === 'pass') action = this.draw(f);
      if (f.count !== undefined) {
        f.count -= 1;
        if (f.count <= 0) delete methods[entryKey];
      }
    }
    return action;
  }

  private draw(f: MethodFaults): FaultAction {
    const hit = (rate: number | undefined) =>
      rate !== undefined && rate > 0 && (rate >= 1 || this.random.float() < rate);
    if (hit(f.timeoutRate)) return { kind: 'timeout' };
    if (hit(f.cloudflareRate)) return { kind: 'cloudflare' };
    if (hit(f.cloudflareBlockRate)) return { kind: 'cloudflare_block' };
    if (hit(f.rateLimitRate)) return { kind: 'rate_limit', retryAfterSeconds: f.retryAfterSeconds ?? 2 };
    if (hit(f.serverErrorRate)) return { kind: 'server_error', status: f.serverErrorStatus ?? 502 };
    if (hit(f.errorRate)) return { kind: 'error', text: f.errorText ?? 'Internal error. Please try again later.' };
    return { kind: 'pass' };
  }

  /**
   * Waits the latency, then applies a drawn fault. Returns true when the
   * request was answered (or is hanging) by the fault.
   */
  async apply(key: string, wildcard: string | undefined, req: Request, res: Response): Promise<boolean> {
    const latency = this.latencyMs(key, wildcard);
    if (latency > 0) await sleep(latency);
    const action = this.decide(key, wildcard);
    return this.respond(action, req, res);
  }

  respond(action: FaultAction, req: Request, res: Response): boolean {
    switch (action.kind) {
      case 'pass':
        return false;
      case 'timeout':
        this.hang(res);
        return true;
      case 'cloudflare':
        res
          .status(403)
          .set({
            'Content-Type': 'text/html; charset=UTF-8',
            'cf-mitigated': 'challenge',
            Server: 'cloudflare',
            'cf-ray': CF_RAY,
          })
          .send(CLOUDFLARE_HTML);
        return true;
      case 'cloudflare_block':
        // Script requests (XHR, the API) get Cloudflare's plain-text variant, pages the HTML one.
        if ((req.get('x-requested-with') ?? '').toLowerCase() === 'xmlhttprequest')
          res
            .status(403)
            .set({ 'Content-Type': 'text/plain; charset=UTF-8', Server: 'cloudflare', 'cf-ray': CF_RAY })
            .send('error code: 1020');
        else
          res
            .status(403)
            .set({ 'Content-Type': 'text/html; charset=UTF-8', Server: 'cloudflare', 'cf-ray': CF_RAY })
            .send(CLOUDFLARE_BLOCK_HTML);
        return true;
      case 'rate_limit':
        res
          .status(429)
          .set({ 'Retry-After': String(action.retryAfterSeconds), 'Content-Type': 'text/html; charset=UTF-8' })
          .send(
            '<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center><hr><center>nginx</center></body></html>',
          );
        return true;
      case 'server_error':
        res
          .status(action.status)
          .set('Content-Type', 'text/html; charset=UTF-8')
          .send(
            `<html><head><title>${action.status} Bad Gateway</title></head><body><center><h1>${action.status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`,
          );
        return true;
      case 'error':
        res
          .status(200)
          .type('application/json')
          .send(phpJson({ error: action.text }));
        return true;
    }
  }

  /** Never answers; after `hangMs` destroys the socket (the client has timed out long before). */
  hang(res: Response): void {
    this.hanging.add(res);
    const timer = setTimeout(() => {
      this.hanging.delete(res);
      res.socket?.destroy();
    }, this.config().hangMs);
    timer.unref?.();
    res.on('close', () => {
      clearTimeout(timer);
      this.hanging.delete(res);
    });
  }

  close(): void {
    for (const res of this.hanging) res.socket?.destroy();
    this.hanging.clear();
  }
}
