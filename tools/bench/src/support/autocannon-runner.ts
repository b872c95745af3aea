/**
 * Runs one autocannon measurement in its own process, so the load generator does not share an
 * event loop with the servers it measures. Options arrive as JSON in argv[2]; the result is
 * written to stdout as JSON. Bodies may carry autocannon's `[<id>]` placeholder for unique keys.
 */
import autocannon from 'autocannon';

autocannon(JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>)
  .then((result) => {
    process.stdout.write(JSON.stringify(result));
  })
  .catch((error: unknown) => {
    process.stderr.write(String(error));
    process.exit(1);
  });
