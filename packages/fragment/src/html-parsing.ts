/**
 * Everything read out of Fragment's HTML: the `ajInit({...})` page bootstrap (API hash, tonRate,
 * version), `Wallet.init({...})`, price nodes (`cur_price`, a product page's option labels), `<img>` tags.
 *
 * Fragment's markup is small and regular; these are targeted scanners over it rather than a DOM,
 * and every function returns `undefined` (never a guess) when the expected node is missing.
 * Prices come out as plain decimal strings, thousands grouping read by `fragmentDecimal`
 * (amounts.ts); conversion to units is the caller's.
 */
import { fragmentDecimal } from './amounts';

export { radioValues } from './html-inputs';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  dollar: '$',
};

/** Decodes HTML character references in one pass (so `&amp;#39;` stays `&#39;`). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/** Text content of an HTML snippet: tags removed, entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  const withoutTags = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return unescapeHtml(withoutTags)
    .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

/** `api?hash=<hex>` anywhere in a page (JSON-escaped `\/api?hash=` included). */
export function extractApiHash(html: string): string | undefined {
  return /api\?hash=([0-9a-f]+)/i.exec(html)?.[1];
}

/** Returns the balanced `{...}` that starts at `start` (string-literal aware), or undefined. */
function balancedObject(source: string, start: number): string | undefined {
  if (source[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < source.length; i++) {
    const ch = source[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) return source.slice(start, i + 1);
    }
  }
  return undefined;
}

/** The JSON argument text of the first `<callee>({...})` call in a page. */
function callArgument(html: string, callee: string): string | undefined {
  const at = html.indexOf(`${callee}(`);
  if (at < 0) return undefined;
  return balancedObject(html, at + callee.length + 1);
}

export interface AjInitInfo {
  apiHash: string | undefined;
  version: number | undefined;
  /** USD per TON as written in the page (a decimal string, never a float round-trip). */
  tonRate: string | undefined;
  /** The page's state object (`s` / `state`), for `dh`/`lv` and diagnostics. */
  state: Record<string, unknown>;
}

/** Raw text of a numeric JSON member, e.g. `"tonRate":1.335` → `1.335`. */
function rawJsonNumber(json: string, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*"?(\\d+(?:\\.\\d+)?)"?`).exec(json);
  return match?.[1];
}

export function parseAjInit(html: string): AjInitInfo {
  const json = callArgument(html, 'ajInit');
  let parsed: Record<string, unknown> = {};
  if (json !== undefined) {
    try {
      const value: unknown = JSON.parse(json);
      if (value && typeof value === 'object') parsed = value as Record<string, unknown>;
    } catch {
      parsed = {};
    }
  }
  const state = parsed.state && typeof parsed.state === 'object' ? (parsed.state as Record<string, unknown>) : {};
  const apiUrl = typeof parsed.apiUrl === 'string' ? parsed.apiUrl : undefined;
  return {
    apiHash: (apiUrl && extractApiHash(apiUrl)) ?? extractApiHash(json ?? html),
    version: typeof parsed.version === 'number' ? parsed.version : undefined,
    tonRate: json !== undefined ? rawJsonNumber(json, 'tonRate') : undefined,
    state,
  };
}

export interface WalletInitInfo {
  address: string | undefined;
  loggedIn: boolean | undefined;
  tonConnectVersion: number | undefined;
}

/** `Wallet.init({"address":"0:…","ton_proof":"…","logged_in":true,"version":2})`. */
export function parseWalletInit(html: string): WalletInitInfo | undefined {
  const json = callArgument(html, 'Wallet.init');
  if (json === undefined) return undefined;
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    return {
      address: typeof value.address === 'string' && value.address !== '' ? value.address : undefined,
      loggedIn: typeof value.logged_in === 'boolean' ? value.logged_in : undefined,
      tonConnectVersion: typeof value.version === 'number' ? value.version : undefined,
    };
  } catch {
    return undefined;
  }
}

/** The amount shown by the first node of class `icon`: its text, grouping removed, nested spans included. */
function iconAmount(html: string, icon: string): string | undefined {
  const open = new RegExp(
    `<([a-z][a-z0-9]*)\\b[^>]*\\bclass\\s*=\\s*["'][^"']*\\b${icon}\\b[^"']*["'][^>]*>`,
    'i',
  ).exec(html);
  if (!open) return undefined;
  const tag = open[1] ?? '';
  const rest = html.slice(open.index + open[0].length);
  // Nested children are inline spans; the node ends at the first closing tag of its own name.
  const close = rest.search(new RegExp(`</${tag}\\s*>`, 'i'));
  const inner = close >= 0 ? rest.slice(0, close) : rest;
  return fragmentDecimal(htmlToText(inner).replace(/^\$/, ''));
}

/**
 * The TON amount of the first `icon-ton` node: `<div class="tm-value icon-before icon-ton">44<span
 * class="mini-frac">.6172</span></div>` → `"44.6172"`.
 */
export function parseTonAmount(html: string): string | undefined {
  return iconAmount(html, 'icon-ton');
}

/** The dollar amount: an `icon-usd` node, else the first `$`, `&#036;`, `&#36;`, `&dollar;` amount: `"75.75"`. */
export function parseUsdAmount(html: string): string | undefined {
  const icon = iconAmount(html, 'icon-usd');
  if (icon !== undefined) return icon;
  const text = htmlToText(html);
  const match = /\$\s*(\d[\d,\u00a0\u202f\u2009]*(?:\.\d+)?)/.exec(text);
  return match?.[1] !== undefined ? fragmentDecimal(match[1]) : undefined;
}

export interface DisplayedPrice {
  /** TON, decimal string as displayed (≤ 4 decimals on Fragment). */
  ton: string;
  /** USD, decimal string as displayed. */
  usd: string;
}

/** An `update_prices` method's `cur_price` HTML → both amounts, or undefined if either is missing. */
export function parseCurPrice(html: string): DisplayedPrice | undefined {
  const ton = parseTonAmount(html);
  const usd = parseUsdAmount(html);
  return ton !== undefined && usd !== undefined ? { ton, usd } : undefined;
}

/**
 * Each `<label …>…</label>`, as `/<label\b[\s\S]*?<\/label>/gi` would match them, in linear time:
 * that regex rescans to the end of the page from every `<label` without a closing tag, which
 * took seconds on a page of unclosed labels (found by the fuzz suite).
 */
function labelBlocks(html: string): string[] {
  const blocks: string[] = [];
  const open = /<label\b/gi;
  const close = /<\/label>/gi;
  for (let start = open.exec(html); start; start = open.exec(html)) {
    close.lastIndex = start.index + start[0].length;
    const end = close.exec(html);
    // No closing tag after this opening: none after any later opening either.
    if (!end) break;
    blocks.push(html.slice(start.index, end.index + end[0].length));
    open.lastIndex = end.index + end[0].length;
  }
  return blocks;
}

/**
 * A product page's option `<label>`s (`input[name=<field>]`, the pack's `optionField`), each
 * with its price in TON (`icon-ton` + `mini-frac`) and USD. Options whose price cannot be read
 * are left out.
 */
export function parseOptionPrices(html: string, field: string): Map<number, DisplayedPrice> {
  const options = new Map<number, DisplayedPrice>();
  const name = new RegExp(`<input\\b[^>]*\\bname\\s*=\\s*["']${field.replace(/[^A-Za-z0-9_]/g, '')}["'][^>]*>`, 'i');
  for (const label of labelBlocks(html)) {
    const input = name.exec(label)?.[0];
    if (!input) continue;
    const value = Number(/\bvalue\s*=\s*["'](\d+)["']/i.exec(input)?.[1]);
    if (!Number.isInteger(value)) continue;
    const price = parseCurPrice(label);
    if (price && !options.has(value)) options.set(value, price);
  }
  return options;
}

/** `src` of the first `<img>` in a snippet (`found.photo`), entities decoded. */
export function parseImgSrc(html: string): string | undefined {
  const src = /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
  return src !== undefined ? unescapeHtml(src) : undefined;
}

/** Cloudflare's interstitial ("Just a moment…", challenge-platform scripts). */
export function isCloudflareChallenge(body: string): boolean {
  return /just a moment|challenge-platform|cf-chl|cf_chl|attention required! \| cloudflare/i.test(body);
}

/**
 * Whether a page shows a live Telegram login: Fragment's script reads it from `Aj.state.unAuth`
 * (false when logged in), docs/fragment-protocol.md §19.2. Logged-out pages carry the API hash
 * too, so the hash proves nothing. `Wallet.init` `logged_in` is the TON wallet's login, not this
 * one (`pageWalletLoggedIn`). undefined when the page does not say.
 */
export function pageLoggedIn(html: string): boolean | undefined {
  const ajInit = callArgument(html, 'ajInit');
  if (ajInit === undefined) return undefined;
  // `unAuth` sits in the page state or beside it, depending on the page.
  const unAuth = /"un[aA]uth"\s*:\s*(true|false|1|0)\b/.exec(ajInit)?.[1];
  if (unAuth === undefined) return undefined;
  return unAuth === 'false' || unAuth === '0';
}

/**
 * Whether the page's TON wallet is logged in (`Wallet.init` `logged_in`, which Fragment's script
 * keeps as `tonConnectLoggedIn`): a paying login needs it, a reading one does not.
 */
export function pageWalletLoggedIn(html: string): boolean | undefined {
  return parseWalletInit(html)?.loggedIn;
}
