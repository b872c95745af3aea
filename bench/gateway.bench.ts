/**
 * npm run bench:gateway — the gateway's own cost, beside a bare Express 5 handler measured in
 * the same run (autocannon, 64 connections):
 *   POST /api/v1/purchases (unique idempotency keys)  vs  POST /bare   target ≥ 30 %, p99 < 25 ms
 *   GET  /api/v1/purchases/:id                         vs  GET  /bare   target ≥ 60 %, p99 < 25 ms
 * and wallet resolution: TON-native 24-word resolves per second, and the latency of GETs
 * running at the same time (key derivation must not stall the event loop).
 */
import { mnemonicNew } from '@ton/crypto';
import { startSandbox } from '@starsgate/sandbox';
import { bareExpressApp, listen, measure, ratioLine, startBenchGateway, DURATION } from './support/harness';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const BIP39 = 'cook voyage document eight skate token alien guide drink uncle term abuse';

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, fragment: false, demoWallets: false });
  const bench = await startBenchGateway({
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    USDT_MASTER_ADDRESS: sandbox.chain.usdtMaster.toString(),
  });
  const bare = await listen(bareExpressApp());
  process.stdout.write(
    `bench:gateway — ${CONNECTIONS} connections, ${DURATION} s per run, Node ${process.version}\n\n`,
  );

  let counter = 0;
  const order = () =>
    JSON.stringify({
      product: 'stars',
      username: '@alice',
      amount: 50 + (counter % 1000),
      payment_method: 'gram',
      seed: BIP39,
      account_index: 0,
      idempotency_key: `bench-${process.pid}-${(counter += 1)}`,
    });
  const warm = await fetch(`${bench.url}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: order(),
  });
  const { status_url: statusUrl } = (await warm.json()) as { status_url: string };

  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, connections: CONNECTIONS };
  const bareGet = await measure('GET  /bare (bare Express 5)', { url: `${bare.url}/bare`, connections: CONNECTIONS });
  const ourGet = await measure('GET  /api/v1/purchases/:id', {
    url: `${bench.url}${statusUrl}`,
    connections: CONNECTIONS,
  });
  const barePost = await measure('POST /bare (bare Express 5, JSON body)', {
    ...post,
    url: `${bare.url}/bare`,
    body: order(),
  });
  // `[<id>]` is replaced by autocannon with a unique id per request: every POST is a new order.
  const ourPost = await measure('POST /api/v1/purchases (unique keys)', {
    ...post,
    url: `${bench.url}/api/v1/purchases`,
    idReplacement: true,
    body: order().replace(/"idempotency_key":"[^"]+"/, '"idempotency_key":"bench-[<id>]"'),
  });

  process.stdout.write('\n');
  process.stdout.write(
    `${ratioLine('GET  purchase', ourGet, bareGet, 0.6)}   p99 ${ourGet.latency.p99} ms (target < 25)\n`,
  );
  process.stdout.write(
    `${ratioLine('POST purchase', ourPost, barePost, 0.3)}   p99 ${ourPost.latency.p99} ms (target < 25)\n`,
  );

  // Wallet resolution: 24-word seeds run 100,000 PBKDF2 rounds each; distinct seeds defeat the cache.
  const seeds = await Promise.all(Array.from({ length: 50 }, async () => (await mnemonicNew(24)).join(' ')));
  const started = Date.now();
  const resolving = Promise.all(
    seeds.map((seed) =>
      fetch(`${bench.url}/api/v1/wallets/resolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed }),
      }),
    ),
  );
  const getsDuring = await measure('GET  purchase during 50 resolves', {
    url: `${bench.url}${statusUrl}`,
    connections: 8,
    duration: 2,
  });
  const responses = await resolving;
  const seconds = (Date.now() - started) / 1000;
  const ok = responses.filter((response) => response.status === 200).length;
  process.stdout.write(
    `\n  wallet resolve (24-word): ${ok}/50 ok in ${seconds.toFixed(2)} s = ${(ok / seconds).toFixed(1)} resolves/s; concurrent GET p50 ${getsDuring.latency.p50} ms, p99 ${getsDuring.latency.p99} ms\n`,
  );

  bare.server.close();
  await bench.close();
  await sandbox.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
