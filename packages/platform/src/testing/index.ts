/**
 * `@starsgate/platform/testing`: what tests, benches and the stack launcher share, kept out
 * of the services' entry point: free ports, polling, /metrics parsing, where screenshots go.
 */
export { freePort } from './free-port';
export { sleep, waitFor, type WaitForOptions } from './wait-for';
export { waitForHttp } from './wait-for-http';
export { parsePrometheusText, sampleSum, type Sample } from './prometheus-text';
export { screenshotPath, screenshotsDir } from './screenshots';
export { chromiumExecutable, chromiumLaunchOptions, packagedChromiumExecutable } from './chromium-executable';
