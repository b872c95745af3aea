/**
 * Validates Kubernetes objects (a JSON array on stdin) against their JSON schemas and prints one
 * `{ kind, name, errors }` per object as JSON. Core kinds: kubernetes-models (schemas generated from
 * the Kubernetes OpenAPI document); ScaledObject and TriggerAuthentication: @kubernetes-models/keda
 * (generated from KEDA's CRDs, keda.sh_scaledobjects.yaml and keda.sh_triggerauthentications.yaml);
 * ServiceMonitor: @kubernetes-models/prometheus-operator (from the operator's CRDs). Gateway API
 * (HTTPRoute) and External Secrets (ExternalSecret) objects have no schema package installed here:
 * they come back with `schema: false`, and the k8s tests assert their fields instead. A child
 * process because those packages are ES modules, which jest's CommonJS runtime cannot import.
 */
import { readFileSync } from 'node:fs';

const PACKAGES = {
  'keda.sh/': '@kubernetes-models/keda',
  'monitoring.coreos.com/': '@kubernetes-models/prometheus-operator',
};

function modulePath(apiVersion, kind) {
  for (const [group, pkg] of Object.entries(PACKAGES))
    if (apiVersion.startsWith(group)) return `${pkg}/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

const WITHOUT_SCHEMA = ['gateway.networking.k8s.io/', 'external-secrets.io/'];

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  const name = object.metadata?.name;
  if (WITHOUT_SCHEMA.some((group) => object.apiVersion.startsWith(group))) {
    results.push({ kind: object.kind, name, errors: [], schema: false });
    continue;
  }
  let errors = [];
  try {
    const module = await import(modulePath(object.apiVersion, object.kind));
    new module[object.kind](object).validate();
  } catch (error) {
    errors = [error instanceof Error ? error.message : String(error)];
  }
  results.push({ kind: object.kind, name, errors, schema: true });
}
process.stdout.write(JSON.stringify(results));
