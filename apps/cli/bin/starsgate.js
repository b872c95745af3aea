#!/usr/bin/env node
// Runs the TypeScript sources through tsx, as `npm start` runs the other apps (no build step).
require('tsx/cjs');
const { main } = require('../src/main.ts');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
