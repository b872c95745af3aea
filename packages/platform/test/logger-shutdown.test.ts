import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger } from '../src';

test('an entry logged after the logger ended (during shutdown) is dropped, not thrown', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({
    service: 'test',
    level: 'info',
    transports: [new winston.transports.Stream({ stream: sink })],
  });
  logger.info('before');
  const finished = new Promise((resolve) => logger.on('finish', resolve));
  logger.end();
  await finished;
  expect(() => logger.warn('late retry warning')).not.toThrow();
  expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(['before']);
});
