/**
 * The stack launcher as a process (`@starsgate/stack/cli`), for callers that start it rather than
 * import it (the SDKs' tests: packages/sdk/test/support/stack.ts, and through it the Python SDK's):
 * `node --import tsx tools/stack/src/stack-cli.ts '<StackOptions as JSON>'` starts the stack, prints
 * one JSON line (`url`, `adminUrl`, `sandboxUrl`, `adminToken`, `demo`), and stops it when its
 * standard input closes or it gets SIGTERM.
 */
import { serveUntilClosed } from './serve-until-closed';
import { startStack, type StackOptions } from './stack';

type SerializableOptions = Omit<StackOptions, 'onUnexpectedExit'>;

serveUntilClosed(
  () => startStack(JSON.parse(process.argv[2] ?? '{}') as SerializableOptions),
  ({ url, adminUrl, sandboxUrl, adminToken, demo }) => ({ url, adminUrl, sandboxUrl, adminToken, demo }),
  (stack) => stack.stop(),
);
