import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './repo-root';
import { dockerfileTargets, effectiveInstructions, readDockerfile, type Instruction } from './dockerfile';
import { expectedCopies, imageTargets } from './image-targets';
import { imageEnvironment } from './image-layout';
import { SERVICE_HEAP_FLAGS } from '@starsgate/stack';

const { args, stages } = readDockerfile();
const last = (instructions: Instruction[], keyword: string) =>
  instructions.filter((instruction) => instruction.keyword === keyword).at(-1)?.argument;
const all = (instructions: Instruction[], keyword: string) =>
  instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.argument);

describe('Dockerfile', () => {
  it('has a target per app and one for migrations, each running its built bundle with node', () => {
    expect([...dockerfileTargets()].sort()).toEqual(imageTargets.map((target) => target.name).sort());
    for (const target of imageTargets) {
      const instructions = effectiveInstructions(stages, target.name);
      expect(JSON.parse(last(instructions, 'CMD')!)).toEqual(target.command ?? ['node', target.entry]);
      // tini as PID 1, started with RLIMIT_CORE 0 so no process of the image can dump core.
      expect(JSON.parse(last(instructions, 'ENTRYPOINT')!)).toEqual([
        '/bin/sh',
        '-c',
        'ulimit -c 0 && exec /usr/bin/tini -- "$@"',
        'starsgate',
      ]);
      expect(all(instructions, 'COPY')).toEqual(expect.arrayContaining(expectedCopies(target)));
    }
  });

  it("starts the gateway and the worker with the stack's heap sizes, source maps on, and every other image with source maps alone", () => {
    for (const target of imageTargets) {
      const flags = imageEnvironment(target).NODE_OPTIONS!.split(' ');
      const heap = target.name === 'gateway' || target.name === 'worker' ? SERVICE_HEAP_FLAGS[target.name] : [];
      expect({ target: target.name, flags }).toEqual({ target: target.name, flags: ['--enable-source-maps', ...heap] });
    }
    expect(SERVICE_HEAP_FLAGS.worker).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--max-old-space-size=\d+$/)]),
    );
  });

  it('builds on an exact Node release that satisfies the engines field', () => {
    expect(args.NODE_IMAGE).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+(-slim)?(@sha256:[0-9a-f]{64})?$/);
    const [major, minor] = /^node:(\d+)\.(\d+)/.exec(args.NODE_IMAGE!)!.slice(1).map(Number);
    const engines = /^>=(\d+)\.(\d+)$/.exec(
      (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node,
    )!;
    expect(major! * 1000 + minor!).toBeGreaterThanOrEqual(Number(engines[1]) * 1000 + Number(engines[2]));
    const names = new Set(stages.map((stage) => stage.name));
    for (const stage of stages) expect(stage.base === '${NODE_IMAGE}' || names.has(stage.base)).toBe(true);
  });

  it('ships the Node release CI tests on (.node-version)', () => {
    const tested = readFileSync(path.join(root, '.node-version'), 'utf8').trim();
    expect(/^node:(\d+\.\d+\.\d+)-/.exec(args.NODE_IMAGE!)?.[1]).toBe(tested);
  });

  it('runs every target as the unprivileged node user, with production dependencies only and no tsx', () => {
    for (const target of imageTargets) {
      const instructions = effectiveInstructions(stages, target.name);
      expect({ target: target.name, user: last(instructions, 'USER') }).toEqual({ target: target.name, user: 'node' });
      const text = instructions.map((instruction) => `${instruction.keyword} ${instruction.argument}`).join('\n');
      expect(text).not.toMatch(/tsx|--import/);
      expect(text).not.toMatch(/npm (ci|install)/);
    }
    const runtimeDeps = stages.find((stage) => stage.name === 'runtime-deps')!;
    expect(all(runtimeDeps.instructions, 'RUN')[0]).toMatch(/^npm ci --omit=dev /);
    const cuts = all(runtimeDeps.instructions, 'RUN')[1]!;
    for (const target of imageTargets)
      expect(cuts).toContain(`node scripts/build/copy-runtime-deps.mjs ${target.workspace} /deps/${target.name}`);
    // The bundles load @ton/crypto from these node_modules: its build-time patch first (packages/ton/patches).
    expect(cuts.startsWith('node scripts/build/patch-dependencies.mjs')).toBe(true);
  });

  it('checks /livez on the port each serving target exposes, and declares none where nothing listens', () => {
    for (const target of imageTargets) {
      const instructions = effectiveInstructions(stages, target.name);
      const healthcheck = last(instructions, 'HEALTHCHECK')!;
      if (!target.port) {
        expect({ target: target.name, healthcheck }).toEqual({ target: target.name, healthcheck: 'NONE' });
        expect(all(instructions, 'EXPOSE')).toEqual([]);
        continue;
      }
      const listeners = [target.port, ...(target.operatorPort ? [target.operatorPort] : [])];
      expect(all(instructions, 'EXPOSE')).toEqual(listeners.map((listener) => String(listener.number)));
      for (const listener of listeners)
        expect(all(instructions, 'ENV').join(' ')).toContain(`${listener.variable}=${listener.number}`);
      expect(healthcheck).toContain('/livez');
      expect(healthcheck).toContain(`process.env.${target.port.variable}||${target.port.number}`);
    }
  });

  it('declares a port exactly for the targets whose code opens one', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(path.join(dir, entry.name))
          : entry.name.endsWith('.ts')
            ? [path.join(dir, entry.name)]
            : [],
      );
    for (const target of imageTargets) {
      const listens = sources(path.join(root, target.workspace, 'src')).some((file) =>
        /\.listen\(/.test(readFileSync(file, 'utf8')),
      );
      expect({ target: target.name, listens }).toEqual({ target: target.name, listens: Boolean(target.port) });
    }
  });

  it('labels images the OCI way', () => {
    const runtime = all(stages.find((stage) => stage.name === 'runtime')!.instructions, 'LABEL').join(' ');
    for (const key of ['source', 'version', 'revision', 'created', 'licenses', 'vendor', 'base.name'])
      expect(runtime).toContain(`org.opencontainers.image.${key}=`);
    for (const target of imageTargets) {
      const labels = all(stages.find((stage) => stage.name === target.name)!.instructions, 'LABEL').join(' ');
      expect(labels).toContain(`org.opencontainers.image.title="starsgate-${target.name}"`);
      expect(labels).toContain('org.opencontainers.image.description=');
    }
  });

  it('copies the manifest of every workspace, so npm ci sees the whole lockfile', () => {
    const manifests = all(stages.find((stage) => stage.name === 'manifests')!.instructions, 'COPY');
    const workspaces = ['apps', 'packages', 'tools'].flatMap((parent) =>
      readdirSync(path.join(root, parent))
        .filter((name) => existsSync(path.join(root, parent, name, 'package.json')))
        .map((name) => `${parent}/${name}`),
    );
    for (const workspace of workspaces) expect(manifests).toContain(`${workspace}/package.json ${workspace}/`);
  });

  it('keeps local state, secrets, tests and benches out of the build context', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    for (const entry of [
      '.data',
      '**/.data',
      '.env',
      '**/test',
      'test',
      'tools/*/*',
      '!tools/*/package.json',
      'node_modules',
      '**/node_modules',
      '**/dist',
      '.git',
      'docs',
      '.venv',
      '**/.venv',
      '__pycache__',
      '**/__pycache__',
    ])
      expect(ignored).toContain(entry);
  });
});
