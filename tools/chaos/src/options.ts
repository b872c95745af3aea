/** Command-line options of `npm run chaos` (and the `--ci` preset `npm run chaos:ci` uses). */
export interface ChaosOptions {
  seed: string;
  purchases: number;
  checkouts: number;
  /** How long the drive (requests and faults) lasts. */
  minutes: number;
  /** After the drive, how long every row has to reach a final status. */
  settleMinutes: number;
  gateways: number;
  workers: number;
  /** Kills of each of workers and gateways. */
  kills: number;
  /** Fragment's payment validity (seconds): abandoned checkouts expire after it. */
  validitySeconds: number;
  /** The service's per-step time limit (preparing, waiting to send, confirming), seconds. */
  stepLimitSeconds: number;
  /** Keep the run's database after the run (for inspection). */
  keep: boolean;
  logDir: string;
}

const PRESETS = {
  full: {
    purchases: 1000,
    checkouts: 200,
    minutes: 12,
    settleMinutes: 15,
    kills: 3,
    validitySeconds: 300,
    stepLimitSeconds: 300,
  },
  ci: {
    purchases: 150,
    checkouts: 30,
    minutes: 2.5,
    settleMinutes: 6,
    kills: 2,
    validitySeconds: 150,
    stepLimitSeconds: 180,
  },
};

function numberOf(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a non-negative number`);
  return n;
}

export function parseOptions(argv: string[]): ChaosOptions {
  const preset = argv.includes('--ci') ? PRESETS.ci : PRESETS.full;
  const options: ChaosOptions = {
    seed: 'chaos-1',
    ...preset,
    gateways: 2,
    workers: 3,
    keep: false,
    logDir: '',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? (arg.split(/=(.*)/s, 2) as [string, string]) : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--ci':
        break;
      case '--keep':
        options.keep = true;
        break;
      case '--seed':
        options.seed = value() ?? options.seed;
        break;
      case '--purchases':
        options.purchases = Math.floor(numberOf('purchases', value()));
        break;
      case '--checkouts':
        options.checkouts = Math.floor(numberOf('checkouts', value()));
        break;
      case '--minutes':
        options.minutes = numberOf('minutes', value());
        break;
      case '--settle-minutes':
      case '--deadline':
        options.settleMinutes = numberOf('settle-minutes', value());
        break;
      case '--gateways':
        options.gateways = Math.max(1, Math.floor(numberOf('gateways', value())));
        break;
      case '--workers':
        options.workers = Math.max(1, Math.floor(numberOf('workers', value())));
        break;
      case '--kills':
        options.kills = Math.floor(numberOf('kills', value()));
        break;
      case '--log-dir':
        options.logDir = value() ?? '';
        break;
      default:
        throw new Error(
          `unknown option ${arg}; known: --ci --seed --purchases --checkouts --minutes --settle-minutes --gateways --workers --kills --log-dir --keep`,
        );
    }
  }
  return options;
}
