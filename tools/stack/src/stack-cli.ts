/**
 * The stack launcher as a process (`@starsgate/stack/cli`), for callers that start it rather than
 * import it (the SDKs' tests: packages/sdk/test/support/stack.ts, and through it the Python SDK's):
 * `node --import tsx tools/stack/src/stack-cli.ts '<StackOptions as JSON>'` starts the stack, prints
 * one JSON line (`url`, `adminUrl`, `sandboxUrl`, `adminToken`, `demo`), and stops it when its
 * standard input closes or it gets SIGTERM.
 */
import { startStack, type StackOptions } from './stack';

type SerializableOptions = Omit<StackOptions, 'onUnexpectedExit'>;

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as SerializableOptions;
  const stack = await startStack(options);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[stack] stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  const { url, adminUrl, sandboxUrl, adminToken, demo } = stack;
  process.stdout.write(JSON.stringify({ url, adminUrl, sandboxUrl, adminToken, demo }) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`[stack] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
