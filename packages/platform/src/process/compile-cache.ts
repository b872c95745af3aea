/**
 * Imported first by each app's entry. Most of a start is V8 compiling the npm packages the bundle
 * loads (docs/benchmarks.md, "Start-up"); Node's compile cache (22.1+) keeps that code on disk,
 * in `NODE_COMPILE_CACHE` or os.tmpdir()/node-compile-cache, so later starts skip the work. Where
 * the runtime lacks it or the folder is not writable, nothing changes.
 */
import nodeModule from 'node:module';

const withCache = nodeModule as typeof nodeModule & { enableCompileCache?: () => unknown };
withCache.enableCompileCache?.();
