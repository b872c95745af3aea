import winston from 'winston';
import { logContextFields } from './log-context';
import { redactSecrets } from './redact-secrets';

export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Extra transports (tests capture log lines through a stream transport). */
  transports?: winston.transport[];
}

const LEVEL = Symbol.for('level');
const SPLAT = Symbol.for('splat');

/**
 * Runs last before serialisation: every field of the entry, including error stacks and
 * metadata from child loggers, passes through the redactor.
 */
const redactionFormat = winston.format((info) => {
  const cleaned = redactSecrets({ ...info }) as Record<string, unknown>;
  for (const key of Object.keys(info)) delete (info as Record<string, unknown>)[key];
  Object.assign(info, cleaned);
  (info as Record<symbol, unknown>)[LEVEL] = cleaned.level;
  delete (info as Record<symbol, unknown>)[SPLAT];
  return info;
});

/** The unit of work's fields (request id, trace id); the entry's own fields win. */
const contextFormat = winston.format((info) => {
  const fields = logContextFields();
  for (const [key, value] of Object.entries(fields)) if (!(key in info)) (info as Record<string, unknown>)[key] = value;
  return info;
});

export function createLogger(options: LoggerOptions): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const silent = level === 'silent';
  // winston runs the whole format pipeline before its transports filter by level; dropping
  // disabled levels first keeps an access-log call at `http` free when LOG_LEVEL=info.
  const enabledOnly = winston.format((info) => (logger.isLevelEnabled(info.level) ? info : false));
  const logger: winston.Logger = winston.createLogger({
    level: silent ? 'error' : level,
    silent: silent && !options.transports?.length,
    defaultMeta: { service: options.service },
    format: winston.format.combine(
      enabledOnly(),
      contextFormat(),
      winston.format.errors({ stack: true }),
      winston.format.timestamp(),
      redactionFormat(),
      winston.format.json(),
    ),
    transports: options.transports ?? [new winston.transports.Console()],
  });
  // An entry after logger.end() (a warm-up retry that settles while the process stops) is dropped:
  // winston reports it as an 'error' event, which unhandled would crash a clean shutdown (exit 1).
  logger.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_WRITE_AFTER_END') throw error;
  });
  return logger;
}
