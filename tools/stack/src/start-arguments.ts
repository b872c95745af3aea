import { parseArgs } from 'node:util';

export interface StartArguments {
  /** `source`: the services through tsx (the default); `build`: their bundles, built first when stale. */
  from: 'source' | 'build';
}

export const START_USAGE = 'usage: npm start [-- --from=source|build]';

/**
 * `npm start`'s arguments. Anything it does not know is an error, not ignored: `--from build`
 * and `--from=build` both run the bundles, and a typo does not quietly run the sources.
 */
export function parseStartArguments(argv: readonly string[]): StartArguments {
  const { values } = parseArgs({
    args: [...argv],
    options: { from: { type: 'string', default: 'source' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.from !== 'source' && values.from !== 'build')
    throw new TypeError(`--from must be "source" or "build", not "${values.from}"`);
  return { from: values.from };
}
