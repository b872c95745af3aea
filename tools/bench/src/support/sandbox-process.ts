/**
 * The sandbox in its own process for bench:pipeline: the chain emulator and the Fragment simulator
 * stand for remote upstreams, so their CPU must not be billed to the worker being measured.
 * Reads its options as JSON from argv[2]; prints one `READY {…}` line; stops on SIGTERM.
 */
import { startSandbox, type SandboxOptions } from '@starsgate/sandbox';

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions;
  const sandbox = await startSandbox({ ...options, port: 0, dataDir: null, demoWallets: false });
  const ready = {
    url: sandbox.url,
    usdtMaster: sandbox.chain.usdtMaster.toRawString(),
    receivers: {
      stars: sandbox.fragment!.receivingAddresses.stars.toRawString(),
      premium: sandbox.fragment!.receivingAddresses.premium.toRawString(),
    },
  };
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
  process.on('SIGTERM', () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
