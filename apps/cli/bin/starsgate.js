#!/usr/bin/env node
// Runs the CLI's esbuild bundle (`npm run build -w @starsgate/cli`): plain JavaScript, no compiler at start.
let main;
try {
  ({ main } = require('../dist/main.js'));
} catch (error) {
  if (error && error.code === 'MODULE_NOT_FOUND' && /dist[\\/]main\.js/.test(error.message)) {
    process.stderr.write(
      'starsgate: the CLI is not built; run `npm run build -w @starsgate/cli` (npm start builds it)\n',
    );
    process.exit(1);
  }
  throw error;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
