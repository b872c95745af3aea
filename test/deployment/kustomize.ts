/**
 * A renderer for the subset of kustomize (kustomize.config.k8s.io/v1beta1) that k8s/ uses, so the
 * tests can build every overlay without a kustomize binary (none installs from npm offline).
 *
 * Supported: `resources` (files and folders with a kustomization.yaml, recursively), `namespace`,
 * `images` (newName, newTag, digest), `replicas`, `configMapGenerator` / `secretGenerator` (envs,
 * literals; behavior create or merge) with `generatorOptions.disableNameSuffixHash: true`, and
 * `patches` (a strategic-merge patch as an inline string or a file, matched by the patch's own kind
 * and name or by `target`; named lists such as containers merge by `name`; `$patch: delete` removes
 * the object). Anything else in a kustomization is refused rather than silently ignored.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

interface Generator {
  name: string;
  behavior?: 'create' | 'merge';
  envs?: string[];
  literals?: string[];
}

interface Patch {
  path?: string;
  patch?: string;
  target?: { kind?: string; name?: string };
}

interface Kustomization {
  resources?: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  generatorOptions?: { disableNameSuffixHash?: boolean };
  patches?: Patch[];
}

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'images',
  'replicas',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'patches',
]);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);
/** Lists whose items merge by `name` in a strategic-merge patch (the ones k8s/ patches). */
const MERGE_BY_NAME = new Set(['containers', 'initContainers', 'env', 'ports', 'volumes', 'volumeMounts']);

export function renderKustomization(dir: string): KubeObject[] {
  const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0) throw new Error(`${dir}: unsupported kustomization fields ${unsupported.join(', ')}`);

  let objects = (kustomization.resources ?? []).flatMap((resource) => loadResource(path.join(dir, resource)));
  objects = applyGenerators(dir, kustomization, objects);
  for (const patch of kustomization.patches ?? []) objects = applyPatch(dir, patch, objects);
  for (const { name, count } of kustomization.replicas ?? []) {
    const target = objects.find((object) => object.metadata.name === name && hasSpec(object));
    if (!target) throw new Error(`${dir}: replicas for unknown ${name}`);
    (target.spec as Record<string, unknown>).replicas = count;
  }
  for (const image of kustomization.images ?? []) for (const object of objects) retagImages(object, image);
  if (kustomization.namespace) {
    for (const object of objects)
      if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
  }
  return objects;
}

const hasSpec = (object: KubeObject) => typeof object.spec === 'object' && object.spec !== null;

function loadResource(file: string): KubeObject[] {
  if (statSync(file).isDirectory()) return renderKustomization(file);
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJSON() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

function readEnvFile(file: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [key, value] = splitPair(trimmed, file);
    data[key] = value;
  }
  return data;
}

function splitPair(pair: string, where: string): [string, string] {
  const index = pair.indexOf('=');
  if (index <= 0) throw new Error(`${where}: "${pair}" is not KEY=value`);
  return [pair.slice(0, index), pair.slice(index + 1)];
}

function applyGenerators(dir: string, kustomization: Kustomization, objects: KubeObject[]): KubeObject[] {
  const generators = [
    ...(kustomization.configMapGenerator ?? []).map((generator) => ({ generator, kind: 'ConfigMap' })),
    ...(kustomization.secretGenerator ?? []).map((generator) => ({ generator, kind: 'Secret' })),
  ];
  if (generators.length > 0 && kustomization.generatorOptions?.disableNameSuffixHash !== true)
    throw new Error(`${dir}: name-suffix hashes are not supported; set generatorOptions.disableNameSuffixHash`);
  const result = [...objects];
  for (const { generator, kind } of generators) {
    const data: Record<string, string> = {};
    for (const env of generator.envs ?? []) Object.assign(data, readEnvFile(path.join(dir, env)));
    for (const literal of generator.literals ?? []) {
      const [key, value] = splitPair(literal, dir);
      data[key] = value;
    }
    const encoded =
      kind === 'Secret'
        ? Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]))
        : data;
    const existing = result.find((object) => object.kind === kind && object.metadata.name === generator.name);
    if ((generator.behavior ?? 'create') === 'merge') {
      if (!existing) throw new Error(`${dir}: ${kind} ${generator.name} to merge into does not exist`);
      existing.data = { ...(existing.data as Record<string, string>), ...encoded };
      continue;
    }
    if (existing) throw new Error(`${dir}: ${kind} ${generator.name} already exists`);
    result.push({
      apiVersion: 'v1',
      kind,
      metadata: { name: generator.name },
      ...(kind === 'Secret' ? { type: 'Opaque' } : {}),
      data: encoded,
    });
  }
  return result;
}

function applyPatch(dir: string, patch: Patch, objects: KubeObject[]): KubeObject[] {
  const text = patch.path ? readFileSync(path.join(dir, patch.path), 'utf8') : patch.patch;
  if (!text) throw new Error(`${dir}: a patch needs path or patch`);
  const body = parse(text) as Partial<KubeObject> & { $patch?: string };
  if (Array.isArray(body)) throw new Error(`${dir}: JSON 6902 patches are not supported`);
  const kind = patch.target?.kind ?? body.kind;
  const name = patch.target?.name ?? body.metadata?.name;
  const matches = objects.filter((object) => object.kind === kind && (!name || object.metadata.name === name));
  if (matches.length === 0) throw new Error(`${dir}: patch target ${kind}/${name} not found`);
  if (body.$patch === 'delete') return objects.filter((object) => !matches.includes(object));
  return objects.map((object) => (matches.includes(object) ? (mergePatch(object, body) as KubeObject) : object));
}

/** Strategic merge for the shapes k8s/ patches: maps merge, named lists merge by name, other lists are replaced. */
export function mergePatch(target: unknown, patch: unknown, key?: string): unknown {
  if (Array.isArray(patch)) {
    if (!key || !MERGE_BY_NAME.has(key) || !Array.isArray(target)) return patch;
    const merged = [...(target as Array<{ name?: string }>)];
    const added: Array<{ name?: string }> = [];
    for (const item of patch as Array<{ name?: string; $patch?: string }>) {
      const index = merged.findIndex((existing) => existing.name === item.name);
      if (item.$patch === 'delete') {
        if (index >= 0) merged.splice(index, 1);
      } else if (index >= 0) merged[index] = mergePatch(merged[index], item) as { name?: string };
      else added.push(item);
    }
    // kustomize puts the items a patch adds before the existing ones.
    return [...added, ...merged];
  }
  if (patch === null) return undefined;
  if (typeof patch !== 'object' || typeof target !== 'object' || target === null || Array.isArray(target)) return patch;
  const result: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [field, value] of Object.entries(patch as Record<string, unknown>)) {
    const merged = mergePatch(result[field], value, field);
    if (merged === undefined) delete result[field];
    else result[field] = merged;
  }
  return result;
}

function retagImages(object: KubeObject, image: NonNullable<Kustomization['images']>[number]): void {
  const podSpec = (object.spec as { template?: { spec?: Record<string, unknown> } } | undefined)?.template?.spec;
  if (!podSpec) return;
  for (const list of ['containers', 'initContainers'])
    for (const container of (podSpec[list] as Array<{ image?: string }> | undefined) ?? []) {
      const reference = container.image ? /^(.*?)(?::([^:/@]+))?(?:@(.+))?$/.exec(container.image) : null;
      if (!reference || reference[1] !== image.name) continue;
      const name = image.newName ?? image.name;
      const tag = image.newTag ?? reference[2];
      container.image = image.digest ? `${name}@${image.digest}` : tag ? `${name}:${tag}` : name;
    }
}
