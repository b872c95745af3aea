import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, type Logger } from '@starsgate/platform';

/** A debug-level gateway logger whose every line is kept (serialised JSON), for tests to search. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const capture = new winston.transports.Stream({
    stream: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8').trim());
        callback();
      },
    }),
  });
  return { logger: createLogger({ service: 'gateway', level: 'debug', transports: [capture] }), lines };
}
