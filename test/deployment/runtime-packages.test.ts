/**
 * What each image installs: the npm packages of its runtime tree (the workspace's production
 * dependencies and theirs, exactly what the Dockerfile's runtime-deps stage copies with
 * copy-runtime-deps.mjs). No compiler, bundler or TypeScript runner may be among them: the apps
 * run their esbuild bundles, and the browser pages they serve are bundled at build time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './repo-root';
import { effectiveInstructions, readDockerfile } from './dockerfile';
import { expectedCopies, imageTargets } from './image-targets';

/** Packages that compile, bundle or run TypeScript: build and development tools, never runtime. */
const BUILD_TOOLS = [
  /^esbuild$/,
  /^@esbuild\//,
  /^@esbuild-kit\//,
  /^esbuild-register$/,
  /^typescript$/,
  /^tsx$/,
  /^ts-node$/,
  /^@swc\//,
  /^@babel\/core$/,
  /^webpack$/,
  /^rollup$/,
  /^@rollup\//,
  /^vite$/,
  /^turbo$/,
  /^drizzle-kit$/,
  /^jest$/,
  /^ts-jest$/,
];

const packageName = (entry: string) => entry.slice(0, entry.lastIndexOf('@'));

function runtimePackages(workspaces: string[]): Record<string, string[]> {
  const output = execFileSync(
    process.execPath,
    [path.join(root, 'scripts/build/runtime-packages.mjs'), ...workspaces],
    { cwd: root, encoding: 'utf8' },
  );
  return JSON.parse(output) as Record<string, string[]>;
}

const buildTools = (packages: string[]) =>
  packages.filter((entry) => BUILD_TOOLS.some((pattern) => pattern.test(packageName(entry))));

const packages = runtimePackages(imageTargets.map((target) => target.workspace));

test.each(imageTargets.map((target) => [target.name, target.workspace]))(
  'the %s image installs no build tool',
  (_name, workspace) => {
    const installed = packages[workspace]!;
    expect(installed.length).toBeGreaterThan(0);
    expect(buildTools(installed)).toEqual([]);
  },
);

test("the migrate image carries what migrating needs, not the services' runtime (tracing, queues, logging)", () => {
  const migrate = imageTargets.find((target) => target.name === 'migrate')!;
  const services = /^(@opentelemetry\/|bullmq$|ioredis$|winston$|prom-client$|express$)/;
  expect(packages[migrate.workspace]!.filter((entry) => services.test(packageName(entry)))).toEqual([]);
});

/** What `@opentelemetry/sdk-node` and the admin UI's sources used to bring into the images unused. */
const UNUSED_AT_RUNTIME = [
  /^@grpc\//,
  /^@opentelemetry\/sdk-node$/,
  /^@opentelemetry\/exporter-.*-grpc$/,
  /^@opentelemetry\/exporter-(zipkin|prometheus)$/,
  /^@opentelemetry\/propagator-(b3|jaeger)$/,
  /^preact$/,
  /^uplot$/,
];

test.each(imageTargets.map((target) => [target.name, target.workspace]))(
  'the %s image carries no gRPC, no OpenTelemetry it does not use and no browser library (bundled at build time)',
  (_name, workspace) => {
    const unused = packages[workspace]!.filter((entry) =>
      UNUSED_AT_RUNTIME.some((pattern) => pattern.test(packageName(entry))),
    );
    expect(unused).toEqual([]);
  },
);

test('the images install what the Dockerfile cuts for them, from a production-only install', () => {
  const stage = readDockerfile().stages.find((candidate) => candidate.name === 'runtime-deps')!;
  const runs = stage.instructions.filter((instruction) => instruction.keyword === 'RUN').map((run) => run.argument);
  expect(runs[0]).toMatch(/^npm ci --omit=dev /);
  for (const target of imageTargets) {
    expect(runs.join('\n')).toContain(`copy-runtime-deps.mjs ${target.workspace} /deps/${target.name}`);
    const copies = effectiveInstructions(readDockerfile().stages, target.name)
      .filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => instruction.argument);
    // Only the runtime trees and the built output: no sources, nothing else from the build stage.
    expect(copies.sort()).toEqual(expectedCopies(target).sort());
  }
});

test('the build-tool check catches a build tool in a runtime tree', () => {
  expect(buildTools(['express@5.3.0', 'esbuild@0.28.2', '@esbuild/linux-x64@0.28.2', 'typescript@5.9.3'])).toEqual([
    'esbuild@0.28.2',
    '@esbuild/linux-x64@0.28.2',
    'typescript@5.9.3',
  ]);
});

test('one esbuild version across the workspaces and in the lock', () => {
  const declared = new Set<string>();
  for (const manifest of [
    'package.json',
    ...['apps', 'packages'].flatMap((parent) =>
      readdirSync(path.join(root, parent)).map((name) => `${parent}/${name}/package.json`),
    ),
  ]) {
    let json: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    try {
      json = JSON.parse(readFileSync(path.join(root, manifest), 'utf8')) as typeof json;
    } catch {
      continue;
    }
    const range = json.dependencies?.esbuild ?? json.devDependencies?.esbuild;
    if (range) declared.add(range);
  }
  expect(declared.size).toBe(1);
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const versions = new Set(
    Object.entries(lock.packages)
      .filter(([key]) => key === 'node_modules/esbuild' || key.endsWith('/node_modules/esbuild'))
      .map(([, entry]) => entry.version),
  );
  expect([...versions]).toHaveLength(1);
});

test('the starsgate CLI runs its bundle with node alone: no build tool among its dependencies, no tsx', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'apps/cli/package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    bin: Record<string, string>;
  };
  // `starsgate keys` reads the database (through @starsgate/db, bundled in; pg stays external).
  const dependencies = Object.keys(manifest.dependencies ?? {});
  expect(dependencies.filter((name) => BUILD_TOOLS.some((pattern) => pattern.test(name)))).toEqual([]);
  const bin = path.join(root, 'apps/cli', manifest.bin.starsgate!);
  expect(readFileSync(bin, 'utf8')).not.toMatch(/tsx|\.ts['"]/);
  // jest's global setup built it (scripts/build/development-builds.mjs), as npm start and npm run build do.
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('starsgate purchases list');
});
