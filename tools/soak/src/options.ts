/** Command line of `npm run soak -- --minutes N [--rate R] …`. */
export interface SoakOptions {
  /** Minutes of steady load (the drain after it is not counted). */
  minutes: number;
  /** New orders (purchases and checkouts) per second. */
  rate: number;
  /** Minutes at the start left out of the slopes (JIT, pools and caches filling). */
  warmupMinutes: number;
  /** After the load: how long every order may take to reach a final status. */
  drainSeconds: number;
  /** Share of new orders that are client-signed checkouts. */
  checkoutShare: number;
  /** Gateway and worker processes (several gateways sit behind the launcher's round-robin proxy). */
  gateways: number;
  workers: number;
  /** Keep the run's database (its name is printed) instead of dropping it. */
  keepDatabase: boolean;
}

const USAGE = `usage: npm run soak -- [--minutes 30] [--rate 1] [--warmup 3] [--drain 240] [--checkout-share 0.15] [--gateways 1] [--workers 2] [--keep-db]`;

function numberOption(name: string, value: string | undefined, min: number, max: number): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isFinite(parsed) || parsed < min || parsed > max)
    throw new Error(`--${name} needs a number from ${min} to ${max}\n${USAGE}`);
  return parsed;
}

export function parseSoakOptions(argv: string[]): SoakOptions {
  const options: SoakOptions = {
    minutes: 30,
    rate: 1,
    warmupMinutes: 3,
    drainSeconds: 240,
    checkoutShare: 0.15,
    gateways: 1,
    // Two replicas share each Fragment login, as a deployment does (docs/fragment-protocol.md §20.1).
    workers: 2,
    keepDatabase: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--minutes':
        options.minutes = numberOption('minutes', value(), 1, 24 * 60);
        break;
      case '--rate':
        options.rate = numberOption('rate', value(), 0.05, 50);
        break;
      case '--warmup':
        options.warmupMinutes = numberOption('warmup', value(), 0, 60);
        break;
      case '--drain':
        options.drainSeconds = numberOption('drain', value(), 10, 3_600);
        break;
      case '--checkout-share':
        options.checkoutShare = numberOption('checkout-share', value(), 0, 1);
        break;
      case '--gateways':
        options.gateways = numberOption('gateways', value(), 1, 8);
        break;
      case '--workers':
        options.workers = numberOption('workers', value(), 1, 8);
        break;
      case '--keep-db':
        options.keepDatabase = true;
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return options;
}
