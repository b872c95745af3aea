/**
 * The release workflow, read statically (no container engine, registry or GitHub runner here):
 * multi-arch images of every Dockerfile target with an SBOM and provenance, signed; the SDKs
 * published with provenance; the versions and the tag checked first; base images refused unless
 * pinned by digest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { thirdPartyImages, unpinned } from '../../scripts/release/check-image-pins';
import { dockerfileTargets } from '../deployment/dockerfile';
import { root } from '../deployment/repo-root';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix: Record<string, string[]> };
  steps: Step[];
}

const workflow = parse(readFileSync(path.join(root, '.github/workflows/release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};
const { jobs } = workflow;
const steps = (job: string) => jobs[job]!.steps;
const uses = (job: string, action: string) => steps(job).find((step) => step.uses?.startsWith(`${action}@`));
const runs = (job: string) => steps(job).flatMap((step) => (step.run ? [step.run] : []));

test('runs on release tags with read-only defaults; each job asks only for what it needs', () => {
  expect(workflow.on.push.tags).toEqual(['v*.*.*', 'sdk-v*.*.*']);
  expect(workflow.permissions).toEqual({ contents: 'read' });
  expect(jobs.images!.permissions).toEqual({
    contents: 'read',
    packages: 'write',
    'id-token': 'write',
    attestations: 'write',
  });
  for (const job of ['images', 'sdk-npm', 'sdk-pypi'])
    expect({ job, needs: jobs[job]!.needs }).toEqual({ job, needs: 'verify' });
});

test('verify: generated versions agree, the tag matches its package.json, base images are pinned by digest', () => {
  const scripts = runs('verify').join('\n');
  expect(scripts).toContain('npm run versions:check');
  expect(scripts).toContain('require("./package.json").version');
  expect(scripts).toContain('require("./packages/sdk/package.json").version');
  expect(scripts).toContain('npx tsx scripts/release/check-image-pins.ts');
});

test('images: every Dockerfile target, amd64 and arm64, pushed with SBOM and provenance, signed and attested', () => {
  expect([...jobs.images!.strategy!.matrix.target!].sort()).toEqual([...dockerfileTargets()].sort());
  const build = uses('images', 'docker/build-push-action')!.with!;
  expect(build.platforms).toBe('linux/amd64,linux/arm64');
  expect(build.target).toBe('${{ matrix.target }}');
  expect(build.push).toBe(true);
  expect(build.sbom).toBe(true);
  expect(build.provenance).toBe('mode=max');
  // The image's version label is the tag's version, which verify held to the root package.json.
  expect(build['build-args']).toContain('VERSION=${{ needs.verify.outputs.version }}');
  expect(uses('images', 'docker/setup-qemu-action')).toBeDefined();
  expect(uses('images', 'sigstore/cosign-installer')).toBeDefined();
  expect(runs('images').join('\n')).toMatch(/cosign sign --yes .*@\$\{\{ steps\.build\.outputs\.digest \}\}/);
  expect(uses('images', 'actions/attest-build-provenance')!.with!['subject-digest']).toBe(
    '${{ steps.build.outputs.digest }}',
  );
});

test('SDKs: npm with provenance, PyPI by trusted publishing, only on an sdk tag', () => {
  expect(jobs['sdk-npm']!.if).toContain("'sdk'");
  expect(jobs['sdk-pypi']!.if).toContain("'sdk'");
  expect(jobs.images!.if).toContain("'service'");
  expect(runs('sdk-npm').join('\n')).toContain('npm publish -w @starsgate/sdk --provenance');
  expect(jobs['sdk-npm']!.permissions!['id-token']).toBe('write');
  expect(uses('sdk-pypi', 'pypa/gh-action-pypi-publish')!.with!['packages-dir']).toBe('packages/sdk-python/dist');
  expect(jobs['sdk-pypi']!.permissions!['id-token']).toBe('write');
});

test('the pin check finds every third-party image and refuses a tag alone, accepting a digest', () => {
  const images = thirdPartyImages(root);
  expect(images.map(({ image }) => image.split(/[:@]/)[0])).toEqual(
    expect.arrayContaining(['node', 'postgres', 'redis']),
  );
  expect(images.some(({ image }) => /starsgate/.test(image))).toBe(false);
  const digest = `@sha256:${'0'.repeat(64)}`;
  expect(unpinned([{ file: 'x', image: 'node:24.21.0-bookworm-slim' }])).toHaveLength(1);
  expect(unpinned([{ file: 'x', image: `node:24.21.0-bookworm-slim${digest}` }])).toEqual([]);
  expect(unpinned([{ file: 'x', image: 'node:24.21.0-bookworm-slim@sha256:abc' }])).toHaveLength(1);
});
