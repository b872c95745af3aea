/**
 * The stack CLIs' life cycle: start something, print one JSON line describing it, and stop it when
 * standard input closes (the parent went away) or on SIGTERM/SIGINT; exit 0 once stopped, 1 if
 * starting or stopping failed.
 */
export function serveUntilClosed<T>(
  start: () => Promise<T>,
  describe: (started: T) => unknown,
  stop: (started: T) => Promise<void>,
): void {
  const fail = (error: unknown): never => {
    process.stderr.write(`[stack] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  };
  start().then((started) => {
    let stopping = false;
    const onStop = (): void => {
      if (stopping) return;
      stopping = true;
      stop(started).then(
        () => process.exit(0),
        (error: unknown) => fail(new Error(`stop failed: ${String(error)}`)),
      );
    };
    process.on('SIGTERM', onStop);
    process.on('SIGINT', onStop);
    process.stdin.on('end', onStop);
    process.stdin.on('close', onStop);
    process.stdin.resume();
    process.stdout.write(JSON.stringify(describe(started)) + '\n');
  }, fail);
}
