// The idle reference process of a soak run (reference-process.ts): it does nothing but measure
// its own event-loop delay, with the same 10 ms monitor prom-client uses in the service.
const { monitorEventLoopDelay } = require('node:perf_hooks');

const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const delay = (nanoseconds) => Math.max(0, nanoseconds / 1e6 - RESOLUTION_MS);

process.on('message', () => {
  process.send({
    p50: delay(histogram.percentile(50)),
    p99: delay(histogram.percentile(99)),
    max: delay(histogram.max),
  });
  histogram.reset();
});
process.on('disconnect', () => process.exit(0));
