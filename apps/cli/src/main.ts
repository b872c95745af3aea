import { parseArgs } from 'node:util';
import { SERVICE_VERSION } from '@starsgate/platform/service-version';
import { AdminApiError, AdminClient } from './admin-client';
import { generateAdminToken } from './commands/admin-token';
import type { CommandResult, Options } from './commands/command';
import { listPurchases, resolvePurchase, showPurchase } from './commands/purchases';
import { FragmentEnvironmentError, fragmentContract } from './commands/fragment-contract';
import { generateKeys, KeysEnvironmentError, keysStatus, publicKey, rewrapKeys } from './commands/keys';
import { showStats } from './commands/stats';
import { listFragmentSessions } from './commands/fragment-sessions';
import {
  addWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  retryDelivery,
  rotateWebhook,
} from './commands/webhooks';

const USAGE = `starsgate: the operator API from a terminal (STARSGATE_URL: the gateway's operator listener,
default http://127.0.0.1:8081; STARSGATE_ADMIN_TOKEN).

  starsgate purchases list [--status S] [--product P] [--payment-method M] [--username U]
                           [--wallet ADDRESS] [--idempotency-key K] [--from ISO] [--to ISO]
                           [--limit N] [--cursor C]
  starsgate purchases show <purchase_id>
  starsgate purchases resolve <purchase_id> --outcome completed|failed --reason TEXT
                           [--operator NAME (default $STARSGATE_OPERATOR or $USER)] [--tx HASH]
  starsgate stats
  starsgate fragment sessions  each Fragment login: account, linked wallet, alive/dead since, last order
  starsgate webhooks add <url> [--description TEXT] [--events purchase.completed,purchase.failed]
  starsgate webhooks list | remove <endpoint_id> | rotate <endpoint_id>
  starsgate deliveries list [--endpoint ID] [--state pending|delivered|failed] [--limit N] [--cursor C]
  starsgate deliveries retry <delivery_id>
  starsgate admin-token        print a new random admin token (for STARSGATE_ADMIN_TOKENS)
  starsgate version            the starsgate release this CLI belongs to (also --version)

Fragment, run with the worker's environment, not through the API:
  starsgate fragment contract   read fragment.com's product and history pages as pyfragment's weekly
                                contract test does; exit 1 on drift, creates no order (FRAGMENT_BASE_URL,
                                FRAGMENT_COOKIES, FRAGMENT_READ_COOKIES, FRAGMENT_PROXY_URL)

Key rotation (docs/security.md), run with the worker's environment, not through the API:
  starsgate keys generate [--key-id ID]   a new worker key, its public seal key, a fingerprint key
  starsgate keys public                   STARSGATE_SEAL_KEY from STARSGATE_SECRET_KEY
  starsgate keys status                   live wallet and webhook secrets per key id (DATABASE_URL)
  starsgate keys rewrap                   re-seal every live secret to the first key of
                                          STARSGATE_SECRET_KEY (DATABASE_URL, STARSGATE_SECRET_KEY)

Every command takes --json (machine-readable output) and --operator NAME (recorded in the audit
trail; default $STARSGATE_OPERATOR or $USER). The token is never sent over plain http to a
non-loopback host unless --allow-insecure-http or STARSGATE_ALLOW_INSECURE_HTTP=1. Exit status: 0 success, 1 an API or connection
error, 2 a usage error.`;

class UsageError extends Error {}

const VALUE_OPTIONS = [
  'status',
  'product',
  'payment-method',
  'username',
  'wallet',
  'idempotency-key',
  'from',
  'to',
  'limit',
  'cursor',
  'outcome',
  'reason',
  'operator',
  'tx',
  'description',
  'events',
  'endpoint',
  'state',
  'key-id',
] as const;

interface ParsedArgs {
  positionals: string[];
  options: Options;
  json: boolean;
  help: boolean;
  version: boolean;
  allowInsecureHttp: boolean;
}

function parse(argv: string[]): ParsedArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      'allow-insecure-http': { type: 'boolean' },
      ...Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }])),
    },
  });
  const {
    json,
    help,
    version,
    'allow-insecure-http': allowInsecureHttp,
    ...rest
  } = values as Record<string, string | boolean | undefined>;
  return {
    positionals,
    options: rest as Options,
    json: json === true,
    help: help === true,
    version: version === true,
    allowInsecureHttp: allowInsecureHttp === true,
  };
}

function argument(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (!value) throw new UsageError(`missing <${name}>`);
  return value;
}

async function run(client: () => AdminClient, positionals: string[], options: Options): Promise<CommandResult> {
  const [group, action] = positionals;
  switch (`${group} ${action ?? ''}`.trim()) {
    case 'purchases list':
      return listPurchases(client(), options);
    case 'purchases show':
      return showPurchase(client(), argument(positionals, 2, 'purchase_id'));
    case 'purchases resolve':
      if (!options.outcome || !options.reason) throw new UsageError('resolve needs --outcome and --reason');
      return resolvePurchase(client(), argument(positionals, 2, 'purchase_id'), options);
    case 'stats':
      return showStats(client());
    case 'fragment sessions':
      return listFragmentSessions(client());
    case 'webhooks add':
      return addWebhook(client(), argument(positionals, 2, 'url'), options);
    case 'webhooks list':
      return listWebhooks(client());
    case 'webhooks remove':
      return removeWebhook(client(), argument(positionals, 2, 'endpoint_id'));
    case 'webhooks rotate':
      return rotateWebhook(client(), argument(positionals, 2, 'endpoint_id'));
    case 'deliveries list':
      return listDeliveries(client(), options);
    case 'deliveries retry':
      return retryDelivery(client(), argument(positionals, 2, 'delivery_id'));
    case 'keys generate':
      return generateKeys(options['key-id']);
    case 'keys public':
      return publicKey(process.env);
    case 'keys status':
      return keysStatus(process.env);
    case 'keys rewrap':
      return rewrapKeys(process.env);
    case 'admin-token':
      return generateAdminToken();
    case 'fragment contract':
      return fragmentContract(process.env);
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
  }
}

function describe(error: AdminApiError): string {
  const details = error.details.map((detail) => `\n  ${detail.field ?? ''}: ${detail.message ?? ''}`).join('');
  return `error: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}${details}`;
}

/** Runs one command; answers the process exit status. */
export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  let json = false;
  try {
    const parsed = parse(argv);
    json = parsed.json;
    if (parsed.version || (parsed.positionals.length === 1 && parsed.positionals[0] === 'version')) {
      out.write(json ? `${JSON.stringify({ version: SERVICE_VERSION })}\n` : `starsgate ${SERVICE_VERSION}\n`);
      return 0;
    }
    if (parsed.help || parsed.positionals.length === 0) {
      out.write(`${USAGE}\n`);
      return parsed.help ? 0 : 2;
    }
    const result = await run(
      () => AdminClient.fromEnv(process.env, parsed.options.operator, parsed.allowInsecureHttp),
      parsed.positionals,
      parsed.options,
    );
    out.write(`${json ? JSON.stringify(result.json, null, 2) : result.text}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    if (error instanceof AdminApiError) {
      err.write(
        json
          ? `${JSON.stringify({ error: { status: error.status, code: error.code, message: error.message, details: error.details } })}\n`
          : `${describe(error)}\n`,
      );
      return 1;
    }
    if (
      error instanceof UsageError ||
      error instanceof KeysEnvironmentError ||
      error instanceof FragmentEnvironmentError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    err.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
