import type { FragmentSimulatorConfig } from './config';
import { ceilDiv, formatDecimal, groupThousands, parseDecimal } from './decimal';
import type { SeededRandom } from './random';

/** USD amounts are micro-dollars (6 dp) — the same unit as USDT jetton amounts. */
export const USD_SCALE = 6;
/** TON rate: micro-USD per TON. */
export const RATE_SCALE = 6;
const NANO_PER_TON_QUOTE_UNIT = 100_000n; // 10^9 / 10^4: quotes are rounded up to 4 decimals

export interface Quote {
  usdMicro: bigint;
  /** ceil(usd / rate, 4 dp) in nanoTON. */
  tonNano: bigint;
  /** TON with ≤ 4 decimals, trailing zeros trimmed (`0.4412`). */
  tonText: string;
  /** USDT jetton units (6 dp). */
  usdtUnits: bigint;
  usdtText: string;
}

/** The price book: USD list prices and the (optionally drifting) TON rate. */
export class PriceBook {
  private driftBase: string | undefined;
  private driftRate = 0n;
  private driftStepAt = 0;

  constructor(
    readonly config: () => FragmentSimulatorConfig,
    private readonly clock: () => number,
    private readonly random: SeededRandom,
  ) {}

  /** Current USD per TON in micro-USD. Drift steps are applied lazily, deterministically from the seed. */
  tonRateMicro(): bigint {
    const cfg = this.config();
    const base = parseDecimal(cfg.tonRate, RATE_SCALE);
    if (!cfg.drift.enabled) {
      this.driftBase = undefined;
      return base;
    }
    const now = this.clock();
    if (this.driftBase !== cfg.tonRate) {
      this.driftBase = cfg.tonRate;
      this.driftRate = base;
      this.driftStepAt = now;
    }
    const interval = Math.max(1, cfg.drift.intervalMs);
    while (now - this.driftStepAt >= interval) {
      this.driftStepAt += interval;
      const magnitude = BigInt(this.random.int(1, Math.max(1, cfg.drift.maxStepPpm)));
      const ppm = this.random.float() < 0.5 ? -magnitude : magnitude;
      const next = (this.driftRate * (1_000_000n + ppm)) / 1_000_000n;
      this.driftRate = next > 0n ? next : this.driftRate;
    }
    return this.driftRate;
  }

  tonRateText(): string {
    return formatDecimal(this.tonRateMicro(), RATE_SCALE);
  }

  /**
   * A face-value order: Fragment invoices the whole GRAM asked (docs/fragment-protocol.md §18); its
   * USD worth at `rateMicro` only fills the USDT fields it is never paid in.
   */
  faceValueQuote(gram: number, rateMicro = this.tonRateMicro()): Quote {
    const usdMicro = BigInt(gram) * rateMicro;
    return {
      usdMicro,
      tonNano: BigInt(gram) * 1_000_000_000n,
      tonText: String(gram),
      usdtUnits: usdMicro,
      usdtText: formatDecimal(usdMicro, USD_SCALE),
    };
  }

  quote(usdMicro: bigint, rateMicro = this.tonRateMicro()): Quote {
    // TON = USD / rate; in 10^-4 TON units: usdMicro * 10^4 / rateMicro (both 6 dp), rounded up.
    const tonUnits = ceilDiv(usdMicro * 10_000n, rateMicro);
    return {
      usdMicro,
      tonNano: tonUnits * NANO_PER_TON_QUOTE_UNIT,
      tonText: formatDecimal(tonUnits, 4),
      usdtUnits: usdMicro,
      usdtText: formatDecimal(usdMicro, USD_SCALE),
    };
  }
}

/** USD as Fragment shows it: at least 2 decimals, thousands grouped (`75.75`, `0.765`, `1,350.00`). */
export function formatUsd(usdMicro: bigint): string {
  return groupThousands(formatDecimal(usdMicro, USD_SCALE, 2));
}

/**
 * Splits a TON text into the integer part, grouped as Fragment shows it, and the `mini-frac` part
 * (`44.6172` → `44`, `.6172`; `8823.5295` → `8,823`, `.5295`).
 */
export function splitTon(tonText: string): { whole: string; frac: string } {
  const [whole = '0', frac] = tonText.split('.');
  return { whole: groupThousands(whole), frac: frac ? `.${frac}` : '' };
}
