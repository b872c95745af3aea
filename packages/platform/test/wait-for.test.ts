/** The one polling helper, `freePort` and `waitForHttp` that tests, benches and the stack launcher share. */
import { createServer, type Server } from 'node:http';
import { freePort, waitFor, waitForHttp } from '../src/testing';

describe('waitFor', () => {
  it('returns the first read that is not undefined, null or false (0 counts as found)', async () => {
    const reads = [undefined, null, false, 0, 7];
    let calls = 0;
    const found = await waitFor(() => reads[calls++], { intervalMs: 1 });
    expect(found).toBe(0);
    expect(calls).toBe(4);
  });

  it('gives up after timeoutMs, naming what it waited for as it stands at the end', async () => {
    let tries = 0;
    const started = Date.now();
    const error = await waitFor(
      () => {
        tries += 1;
        return false;
      },
      { timeoutMs: 200, intervalMs: 20, what: () => `a change after ${tries} tries` },
    ).catch((caught: unknown) => caught as Error);
    expect((error as Error).message).toBe(`timed out after 200 ms waiting for a change after ${tries} tries`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(tries).toBeGreaterThan(2);
  });

  it('rejects at once when a read throws', async () => {
    let calls = 0;
    await expect(
      waitFor(
        () => {
          calls += 1;
          throw new Error('read failed');
        },
        { timeoutMs: 10_000 },
      ),
    ).rejects.toThrow('read failed');
    expect(calls).toBe(1);
  });
});

describe('freePort and waitForHttp', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it('waits through refused connections and 503s for the first 2xx on a port freePort gave', async () => {
    const port = await freePort();
    let answered = 0;
    const ready = waitForHttp(`http://127.0.0.1:${port}/readyz`, { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    server = createServer((_req, res) => {
      answered += 1;
      res.writeHead(answered < 3 ? 503 : 200).end('ok');
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    const response = await ready;
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(answered).toBe(3);
  });

  it('stops at once when the process behind the URL is gone', async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(
      waitForHttp(`http://127.0.0.1:${port}/readyz`, { timeoutMs: 30_000, gaveUp: () => 'the sandbox exited' }),
    ).rejects.toThrow(`http://127.0.0.1:${port}/readyz: the sandbox exited`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
