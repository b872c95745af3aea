/**
 * Which pod ports the Prometheus Operator monitors of a set of rendered objects scrape: a
 * ServiceMonitor through the Services it selects (endpoint port → Service port → targetPort → the
 * pods the Service selects), a PodMonitor directly. Selection follows the operator: a monitor's own
 * namespace unless its namespaceSelector names others (`any: true` for all).
 */
import type { Container, KubeObject, PodSpec } from './k8s-manifests';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
interface NamespaceSelector {
  any?: boolean;
  matchNames?: string[];
}
interface Endpoint {
  port?: string;
  portNumber?: number;
  targetPort?: string | number;
}
interface ServicePort {
  name?: string;
  port: number;
  targetPort?: string | number;
}

interface Pod {
  workload: string;
  namespace: string;
  labels: Record<string, string>;
  containers: Container[];
}

/** One scraped pod port, the monitors (kind/namespace/name) scraping it, and the `job` label each gives. */
export interface ScrapedPort {
  pod: string;
  port: number;
  monitors: string[];
  jobs: string[];
}

export function matches(selector: Selector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key]!);
    if (operator === 'NotIn') return !values.includes(labels[key]!);
    if (operator === 'Exists') return key in labels;
    return !(key in labels);
  });
  return byLabel && byExpression;
}

function pods(objects: KubeObject[]): Pod[] {
  return objects
    .filter((object) => WORKLOADS.has(object.kind))
    .map((object) => {
      const template = (object.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } })
        .template;
      return {
        workload: `${object.kind}/${object.metadata.namespace}/${object.metadata.name}`,
        namespace: object.metadata.namespace ?? 'default',
        labels: template.metadata?.labels ?? {},
        containers: template.spec.containers,
      };
    });
}

/** A container port by name or number, as the pod declares it. */
function containerPort(pod: Pod, port: string | number): number | undefined {
  if (typeof port === 'number') return port;
  for (const container of pod.containers)
    for (const declared of container.ports ?? []) if (declared.name === port) return declared.containerPort;
  return undefined;
}

function inNamespaces(monitor: KubeObject, namespace: string): boolean {
  const selector = (monitor.spec as { namespaceSelector?: NamespaceSelector }).namespaceSelector;
  if (selector?.any) return true;
  if (selector?.matchNames) return selector.matchNames.includes(namespace);
  return (monitor.metadata.namespace ?? 'default') === namespace;
}

export function scrapedPorts(objects: KubeObject[]): ScrapedPort[] {
  const allPods = pods(objects);
  const scraped = new Map<string, ScrapedPort>();
  const add = (pod: Pod, port: number | undefined, monitor: KubeObject, job: string) => {
    if (port === undefined) return;
    const key = `${pod.workload}:${port}`;
    const entry = scraped.get(key) ?? { pod: pod.workload, port, monitors: [], jobs: [] };
    entry.monitors.push(`${monitor.kind}/${monitor.metadata.namespace}/${monitor.metadata.name}`);
    entry.jobs.push(job);
    scraped.set(key, entry);
  };
  // The operator's job label: the value of the jobLabel label if set (on the pod for a PodMonitor, on
  // the Service for a ServiceMonitor), else "<namespace>/<PodMonitor name>" or the Service's name.
  const jobLabel = (monitor: KubeObject) => (monitor.spec as { jobLabel?: string }).jobLabel;

  for (const monitor of objects.filter((object) => object.kind === 'PodMonitor')) {
    const spec = monitor.spec as { selector: Selector; podMetricsEndpoints: Endpoint[] };
    for (const pod of allPods.filter((candidate) => inNamespaces(monitor, candidate.namespace)))
      if (matches(spec.selector, pod.labels))
        for (const endpoint of spec.podMetricsEndpoints)
          add(
            pod,
            containerPort(pod, endpoint.port ?? endpoint.portNumber ?? endpoint.targetPort!),
            monitor,
            pod.labels[jobLabel(monitor) ?? ''] ?? `${monitor.metadata.namespace}/${monitor.metadata.name}`,
          );
  }

  for (const monitor of objects.filter((object) => object.kind === 'ServiceMonitor')) {
    const spec = monitor.spec as { selector: Selector; endpoints: Endpoint[] };
    const services = objects.filter(
      (object) =>
        object.kind === 'Service' &&
        inNamespaces(monitor, object.metadata.namespace ?? 'default') &&
        matches(spec.selector, object.metadata.labels ?? {}),
    );
    for (const service of services) {
      const serviceSpec = service.spec as { selector?: Record<string, string>; ports: ServicePort[] };
      const backing = allPods.filter(
        (pod) =>
          pod.namespace === (service.metadata.namespace ?? 'default') &&
          serviceSpec.selector !== undefined &&
          matches({ matchLabels: serviceSpec.selector }, pod.labels),
      );
      for (const endpoint of spec.endpoints) {
        const servicePort =
          endpoint.port !== undefined ? serviceSpec.ports.find((port) => port.name === endpoint.port) : undefined;
        const target = servicePort ? (servicePort.targetPort ?? servicePort.port) : endpoint.targetPort;
        if (target === undefined) continue;
        const job = service.metadata.labels?.[jobLabel(monitor) ?? ''] ?? service.metadata.name;
        for (const pod of backing) add(pod, containerPort(pod, target), monitor, job);
      }
    }
  }
  return [...scraped.values()];
}
