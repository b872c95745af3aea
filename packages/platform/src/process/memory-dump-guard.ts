/**
 * Node flags that write the process's memory (or its environment, where the keys are) to disk, or
 * let something attach and read it: heap snapshots and profiles, diagnostic reports, an inspector,
 * a core dump on an uncaught exception. A service holding keys to money refuses to start with any
 * of them in production (docs/security.md, attack 12).
 */
const MEMORY_DUMP_FLAGS = [
  '--heapsnapshot-signal',
  '--heapsnapshot-near-heap-limit',
  '--heap-prof',
  '--inspect',
  '--inspect-brk',
  '--inspect-port',
  '--inspect-wait',
  '--debug-port',
  '--report-on-signal',
  '--report-on-fatalerror',
  '--report-uncaught-exception',
  '--report-compact',
  '--abort-on-uncaught-exception',
];

/** The memory-dumping flags among `execArgv` and `NODE_OPTIONS`. */
export function memoryDumpFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].filter(Boolean);
  return given.filter((flag) => {
    const name = flag.split('=')[0]!.replace(/_/g, '-');
    return MEMORY_DUMP_FLAGS.includes(name);
  });
}

/**
 * In production: throws naming any memory-dumping flag, and turns diagnostic reports off (a
 * report lists the environment). Elsewhere developers may profile and debug as they like.
 */
export function refuseMemoryDumps(production: boolean, env: NodeJS.ProcessEnv = process.env): void {
  if (!production) return;
  const flags = memoryDumpFlags(process.execArgv, env.NODE_OPTIONS);
  if (flags.length > 0) {
    throw new Error(
      `refusing to start in production with ${flags.join(' ')}: heap snapshots, reports, core dumps and ` +
        'inspectors expose wallet keys (docs/security.md)',
    );
  }
  process.report.reportOnFatalError = false;
  process.report.reportOnSignal = false;
  process.report.reportOnUncaughtException = false;
}
