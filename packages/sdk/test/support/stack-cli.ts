/**
 * `node --import tsx packages/sdk/test/support/stack-cli.ts`: starts the stack (stack.ts), prints one
 * JSON line `{ gateway_url, sandbox_url, wallets }`, and stops everything when its standard input
 * closes or it gets SIGTERM. The Python SDK's integration test drives it.
 */
import { serveUntilClosed } from '@starsgate/stack';
import { startStack } from './stack';

serveUntilClosed(
  startStack,
  (stack) => ({ gateway_url: stack.gatewayUrl, sandbox_url: stack.sandboxUrl, wallets: stack.wallets }),
  (stack) => stack.close(),
);
