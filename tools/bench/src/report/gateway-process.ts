/**
 * The real gateway alone in a process, for profiling it under load (`node --cpu-prof` on this
 * file; bench/report/profile.ts drives it): a fresh database, real Redis, the sandbox's toncenter
 * in its own process so its CPU stays out of the profile. Prints one `READY {"url":…}` line;
 * on SIGTERM closes everything and exits normally, which is when Node writes the .cpuprofile.
 */
import { startBenchGateway } from '../support/harness';
import { startRemoteSandbox } from '../support/remote-sandbox';

async function main(): Promise<void> {
  const sandbox = await startRemoteSandbox({ seed: 'bench-profile', blockMs: 400 });
  const bench = await startBenchGateway({
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    USDT_MASTER_ADDRESS: sandbox.usdtMaster.toString(),
  });
  process.stdout.write(`READY ${JSON.stringify({ url: bench.url })}\n`);
  process.once('SIGTERM', () => {
    Promise.all([bench.close(), sandbox.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      },
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
