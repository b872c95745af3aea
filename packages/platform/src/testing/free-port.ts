import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The lowest port the kernel hands out to outgoing connections (Linux's ip_local_port_range, 32768
 * by default). A listening port picked from above it can be taken by any process's next outgoing
 * connection (a test suite's PostgreSQL, Redis or HTTP client) before the server it was picked for
 * binds it: under a loaded `npm test` that happened.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 20_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const FIRST_PORT = 15_000;
const LAST_PORT = ephemeralLow() - 1;

function listensOn(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port free on 127.0.0.1 right now, below the outgoing-connection range, so only another
 * listener can take it before the caller binds it (two callers pick the same one rarely: a random
 * port out of about 17,000).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await listensOn(FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT + 1)));
    if (port !== undefined) return port;
  }
  const port = await listensOn(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
