/** Rendered overlays and the shapes the k8s tests read from them. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { root } from './app-environment';
import { renderKustomization, type KubeObject } from './kustomize';

export const OVERLAYS = ['sandbox', 'production'] as const;
export type Overlay = (typeof OVERLAYS)[number];

export const render = (overlay: Overlay): KubeObject[] =>
  renderKustomization(path.join(root, 'k8s', 'overlays', overlay));

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
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
}

export function podSpec(object: KubeObject): PodSpec {
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
  return (find(objects, 'ConfigMap', 'starsgate-config').data ?? {}) as Record<string, string>;
}
