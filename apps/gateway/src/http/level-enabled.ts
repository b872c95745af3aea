import type { Logger } from '@starsgate/platform';

/**
 * `() => logger.isLevelEnabled(level)`, recomputed only when the logger's level changes: winston
 * walks (and copies) its transport list on every call, twice per request on the hot routes.
 * Transports are fixed when the logger is created (createLogger), so the level is the only input.
 */
export function levelEnabled(logger: Logger, level: string): () => boolean {
  let answeredFor: string | undefined;
  let enabled = false;
  return () => {
    if (logger.level !== answeredFor) {
      answeredFor = logger.level;
      enabled = logger.isLevelEnabled(level);
    }
    return enabled;
  };
}
