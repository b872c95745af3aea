#!/usr/bin/env node
// Runs the CLI's esbuild bundle (`npm run build -w @starsgate/cli`): plain JavaScript, no compiler at start.
// `starsgate doctor …` and `starsgate migrate` run the worker's doctor and the migration runner
// bundles, which sit beside this one in the repository and in the `cli` image (Dockerfile).
const path = require('node:path');

const DELEGATED = {
  doctor: { bundle: '../../worker/dist/doctor/main.js', build: '@starsgate/worker' },
  migrate: { bundle: '../../../packages/db/dist/migrate.js', build: '@starsgate/db' },
};

function load(bundle, build) {
  try {
    return require(path.join(__dirname, bundle));
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND' && error.message.includes(path.basename(bundle))) {
      process.stderr.write(`starsgate: ${bundle} is not built; run \`npm run build -w ${build}\`\n`);
      process.exit(1);
    }
    throw error;
  }
}

const delegated = DELEGATED[process.argv[2]];
if (delegated) {
  // The delegated program reads its own arguments from process.argv: drop the subcommand's name.
  process.argv.splice(2, 1);
  load(delegated.bundle, delegated.build);
} else {
  const { main } = load('../dist/main.js', '@starsgate/cli');
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = 1;
    },
  );
}
