/**
 * `node --import tsx packages/sdk/test/support/stack-cli.ts`: starts the stack (stack.ts), prints one
 * JSON line `{ gateway_url, sandbox_url, wallets }`, and stops everything when its standard input
 * closes or it gets SIGTERM. The Python SDK's integration test drives it.
 */
import { startStack } from './stack';

async function main(): Promise<void> {
  const stack = await startStack();
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[stack] close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.stdout.write(
    JSON.stringify({ gateway_url: stack.gatewayUrl, sandbox_url: stack.sandboxUrl, wallets: stack.wallets }) + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[stack] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
