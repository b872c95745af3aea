/** Overlays rendered by the real kustomize (`kubectl kustomize`), and the shapes the k8s tests read from them. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { root } from './repo-root';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export const OVERLAYS = ['sandbox', 'production'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** Every object `kubectl kustomize <dir>` builds (kubectl ships kustomize; see docs/deployment.md). */
export function renderKustomization(dir: string): KubeObject[] {
  const output = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output)
    .map((document) => document.toJSON() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null)
    .map(unfoldSecretData);
}

/** kustomize folds long base64 Secret values over several lines, which YAML reads back with spaces. */
function unfoldSecretData(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.entries(object.data as Record<string, string>).map(([key, value]) => [
    key,
    value.replace(/\s/g, ''),
  ]);
  return { ...object, data: Object.fromEntries(data) };
}

export const render = (overlay: Overlay): KubeObject[] =>
  renderKustomization(path.join(root, 'k8s', 'overlays', overlay));

/**
 * The object a generator made: kustomize names it `<name>-<hash of its data>` (generator name-suffix
 * hashes are on, so a settings change is a new name and rolls the pods).
 */
export function generated(objects: KubeObject[], kind: 'ConfigMap' | 'Secret', name: string): KubeObject {
  const matches = objects.filter(
    (object) => object.kind === kind && new RegExp(`^${name}-[a-z0-9]{10}$`).test(object.metadata.name),
  );
  if (matches.length !== 1) throw new Error(`${kind} ${name}-<hash>: ${matches.length} rendered`);
  return matches[0]!;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: unknown };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  startupProbe?: { httpGet?: { path: string; port: string | number } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  automountServiceAccountToken?: boolean;
  topologySpreadConstraints?: Array<{ topologyKey: string; whenUnsatisfiable?: string }>;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
}

/** The pod template of a workload (Deployment, StatefulSet, Job) or of a CronJob's jobs. */
export function podSpec(object: KubeObject): PodSpec {
  if (object.kind === 'CronJob')
    return (object.spec as { jobTemplate: { spec: { template: { spec: PodSpec } } } }).jobTemplate.spec.template.spec;
  return (object.spec as { template: { spec: PodSpec } }).template.spec;
}

export function find(objects: KubeObject[], kind: string, name: string): KubeObject {
  const object = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  if (!object) throw new Error(`${kind}/${name} is not rendered`);
  return object;
}

export interface SchemaResult {
  kind: string;
  name: string;
  errors: string[];
  /** False for kinds whose schema no package here ships (validate-k8s.mjs): held by field assertions only. */
  schema: boolean;
}

/** Every object against its JSON schema (validate-k8s.mjs). */
export function validateAgainstSchemas(objects: KubeObject[]): SchemaResult[] {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'validate-k8s.mjs')], {
    cwd: root,
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  return JSON.parse(output) as SchemaResult[];
}

/** The ConfigMap's data (ConfigMap values) and the decoded Secret data of a rendered overlay. */
export function configData(objects: KubeObject[]): Record<string, string> {
  return (generated(objects, 'ConfigMap', 'starsgate-config').data ?? {}) as Record<string, string>;
}
