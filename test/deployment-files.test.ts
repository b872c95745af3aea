import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Variables the processes read at boot: every one that compose or k8s sets must be real. */
function documentedVariables(): Set<string> {
  return new Set([...read('.env.example').matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!));
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<
      string,
      {
        command?: string[];
        environment?: Record<string, string>;
        image?: string;
        build?: string;
        healthcheck?: unknown;
      }
    >;
  };

  it('runs PostgreSQL, Redis (noeviction), the gateway, the worker and the sandbox', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['gateway', 'postgres', 'redis', 'sandbox', 'worker']);
    expect(compose.services.redis!.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction']));
  });

  it('starts each app from an entry point that exists', () => {
    for (const name of ['gateway', 'worker', 'sandbox']) {
      const command = compose.services[name]!.command!;
      const entry = command[command.length - 1]!;
      expect(existsSync(path.join(root, entry))).toBe(true);
    }
  });

  it('sets only variables the apps document, and requires the secret key', () => {
    const documented = documentedVariables();
    for (const name of ['gateway', 'worker']) {
      const env = compose.services[name]!.environment!;
      for (const key of Object.keys(env))
        expect({ service: name, key, documented: documented.has(key) }).toEqual({
          service: name,
          key,
          documented: true,
        });
      expect(env.STARSGATE_SECRET_KEY).toContain(':?');
    }
  });
});

describe('k8s manifests', () => {
  const documents = readdirSync(path.join(root, 'k8s'))
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(read(`k8s/${file}`)).map((doc) => ({ file, manifest: doc.toJSON() as Record<string, any> })),
    );

  it('every object has apiVersion, kind and a name', () => {
    expect(documents.length).toBeGreaterThan(5);
    for (const { file, manifest } of documents) {
      expect({ file, ok: Boolean(manifest.apiVersion && manifest.kind && manifest.metadata?.name) }).toEqual({
        file,
        ok: true,
      });
    }
  });

  it('the gateway probes /livez and /readyz and the deployments run existing entry points', () => {
    const deployments = documents
      .filter(({ manifest }) => manifest.kind === 'Deployment')
      .map(({ manifest }) => manifest);
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([
      'starsgate-gateway',
      'starsgate-worker',
    ]);
    for (const deployment of deployments) {
      const container = deployment.spec.template.spec.containers[0];
      expect(deployment.spec.selector.matchLabels).toEqual(
        expect.objectContaining({
          'app.kubernetes.io/name': deployment.spec.template.metadata.labels['app.kubernetes.io/name'],
        }),
      );
      expect(existsSync(path.join(root, container.command[container.command.length - 1]))).toBe(true);
    }
    const gateway = deployments.find((deployment) => deployment.metadata.name === 'starsgate-gateway')!.spec.template
      .spec.containers[0];
    expect(gateway.readinessProbe.httpGet.path).toBe('/readyz');
    expect(gateway.livenessProbe.httpGet.path).toBe('/livez');
  });

  it('configures only documented variables', () => {
    const documented = documentedVariables();
    for (const { manifest } of documents.filter(
      ({ manifest }) => manifest.kind === 'ConfigMap' || manifest.kind === 'Secret',
    )) {
      for (const key of Object.keys(manifest.data ?? manifest.stringData ?? {}))
        expect({ key, documented: documented.has(key) }).toEqual({ key, documented: true });
    }
  });

  const kubectl = (() => {
    try {
      execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  (kubectl ? it : it.skip)('builds with kustomize', () => {
    const output = execFileSync('kubectl', ['kustomize', path.join(root, 'k8s')], { encoding: 'utf8' });
    expect(output).toContain('namespace: starsgate');
  });
});
