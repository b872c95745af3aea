import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergePatch, renderKustomization } from './kustomize';

let dir: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kustomize-'));
  write(
    'base/kustomization.yaml',
    `resources: [app.yaml]
configMapGenerator:
  - name: config
    envs: [config.env]
generatorOptions:
  disableNameSuffixHash: true
`,
  );
  write('base/config.env', '# comment\nA=1\nB=two=2\n');
  write(
    'base/app.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  replicas: 1
  template:
    spec:
      initContainers:
        - name: init
          image: tool:1.0
      containers:
        - name: app
          image: registry:5000/team/app:old
          env:
            - name: KEEP
              value: '1'
            - name: DROP
              value: '2'
        - name: sidecar
          image: side
---
apiVersion: v1
kind: Service
metadata:
  name: app
spec:
  ports:
    - port: 80
`,
  );
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('renderKustomization', () => {
  it('loads nested kustomizations, sets the namespace on namespaced objects only, and generates ConfigMaps', () => {
    write('overlay/ns.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n');
    write('overlay/kustomization.yaml', 'namespace: demo\nresources: [ns.yaml, ../base]\n');
    const objects = renderKustomization(path.join(dir, 'overlay'));
    expect(objects.map((object) => [object.kind, object.metadata.namespace])).toEqual([
      ['Namespace', undefined],
      ['Deployment', 'demo'],
      ['Service', 'demo'],
      ['ConfigMap', 'demo'],
    ]);
    expect(objects[3]!.data).toEqual({ A: '1', B: 'two=2' });
  });

  it('merges generators into the base one, and base64-encodes generated Secrets', () => {
    write(
      'overlay/kustomization.yaml',
      `resources: [../base]
configMapGenerator:
  - name: config
    behavior: merge
    literals: [B=3, C=4]
secretGenerator:
  - name: secret
    literals: [TOKEN=s3cr=t]
generatorOptions:
  disableNameSuffixHash: true
`,
    );
    const objects = renderKustomization(path.join(dir, 'overlay'));
    expect(objects.find((object) => object.kind === 'ConfigMap')!.data).toEqual({ A: '1', B: '3', C: '4' });
    expect(objects.find((object) => object.kind === 'Secret')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'secret' },
      type: 'Opaque',
      data: { TOKEN: Buffer.from('s3cr=t').toString('base64') },
    });
  });

  it('applies strategic-merge patches: maps merge, containers and env merge by name, $patch: delete removes', () => {
    write(
      'overlay/patch.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
        - name: app
          env:
            - name: DROP
              $patch: delete
            - name: ADDED
              value: '3'
          resources:
            limits:
              memory: 1Gi
`,
    );
    write(
      'overlay/kustomization.yaml',
      `resources: [../base]
patches:
  - path: patch.yaml
  - patch: |
      apiVersion: v1
      kind: Service
      metadata:
        name: app
      $patch: delete
replicas:
  - name: app
    count: 3
`,
    );
    const objects = renderKustomization(path.join(dir, 'overlay'));
    expect(objects.map((object) => object.kind)).toEqual(['Deployment', 'ConfigMap']);
    const spec = objects[0]!.spec as {
      replicas: number;
      template: { spec: { containers: Array<{ name: string; env?: unknown; resources?: unknown }> } };
    };
    expect(spec.replicas).toBe(3);
    expect(spec.template.spec.containers.map((container) => container.name)).toEqual(['app', 'sidecar']);
    // Added items first, as kustomize 5 orders them.
    expect(spec.template.spec.containers[0]!.env).toEqual([
      { name: 'ADDED', value: '3' },
      { name: 'KEEP', value: '1' },
    ]);
    expect(spec.template.spec.containers[0]!.resources).toEqual({ limits: { memory: '1Gi' } });
  });

  it('retags images by name (containers and init containers), keeping a registry port, or pins a digest', () => {
    write(
      'overlay/kustomization.yaml',
      `resources: [../base]
images:
  - name: registry:5000/team/app
    newTag: '2.0'
  - name: tool
    newName: mirror/tool
    digest: sha256:${'a'.repeat(64)}
  - name: side
    newTag: v1
`,
    );
    const spec = renderKustomization(path.join(dir, 'overlay'))[0]!.spec as {
      template: { spec: { containers: Array<{ image: string }>; initContainers: Array<{ image: string }> } };
    };
    expect(spec.template.spec.containers.map((container) => container.image)).toEqual([
      'registry:5000/team/app:2.0',
      'side:v1',
    ]);
    expect(spec.template.spec.initContainers[0]!.image).toBe(`mirror/tool@sha256:${'a'.repeat(64)}`);
  });

  it('refuses what it does not implement instead of ignoring it', () => {
    write('overlay/kustomization.yaml', 'resources: [../base]\ncommonLabels:\n  a: b\n');
    expect(() => renderKustomization(path.join(dir, 'overlay'))).toThrow(
      /unsupported kustomization fields commonLabels/,
    );
    write('overlay/kustomization.yaml', 'configMapGenerator:\n  - name: x\n    literals: [A=1]\n');
    expect(() => renderKustomization(path.join(dir, 'overlay'))).toThrow(/disableNameSuffixHash/);
    write(
      'overlay/kustomization.yaml',
      'resources: [../base]\npatches:\n  - patch: "- op: remove\\n  path: /spec"\n    target: {kind: Service}\n',
    );
    expect(() => renderKustomization(path.join(dir, 'overlay'))).toThrow(/JSON 6902/);
  });
});

describe('mergePatch', () => {
  it('replaces lists that do not merge by name, and deletes keys patched to null', () => {
    expect(mergePatch({ args: ['a', 'b'], keep: 1, gone: 2 }, { args: ['c'], gone: null })).toEqual({
      args: ['c'],
      keep: 1,
    });
  });
});
