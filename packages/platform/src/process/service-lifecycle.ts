import { ConfigError } from '@starsgate/config';
import type { Logger } from '../logging/logger';

/** Runs `stop` once on the first SIGTERM or SIGINT; a second signal exits at once. */
export function onTerminationSignals(logger: Logger, stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn('second signal: exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    stop(signal).catch((error: unknown) => {
      logger.error('shutdown failed', { error });
      process.exit(1);
    });
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

/** A service's entry point: a configuration error prints its list of problems, anything else its stack. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
