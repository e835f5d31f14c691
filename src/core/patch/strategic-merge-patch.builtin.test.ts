// Rules checked: strategic merge patches on the real 1.32 schemas of Pods,
// Deployments, PodDisruptionBudgets and ControllerRevisions behave as on a
// 1.32 server: which lists merge (and by which key), which are replaced, and
// the retainKeys/replace strategies of the built-in types.

import { describe, expect, it } from 'vitest';
import { builtinSchemaRef, getBuiltinSchemaTable } from '../schema/builtin-table';
import { strategicMergePatch as applySmp, type SmpSchema } from './strategic-merge-patch';

// Results are checked structurally; typed loosely to keep the cases readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const strategicMergePatch = (live: unknown, patch: unknown, schema: SmpSchema): Json => applySmp(live, patch, schema);

const table = getBuiltinSchemaTable();
const schemaOf = (group: string, version: string, kind: string) => ({ node: builtinSchemaRef(group, version, kind), table });
const podSchema = schemaOf('', 'v1', 'Pod');
const deploymentSchema = schemaOf('apps', 'v1', 'Deployment');

function pod(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Json {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...metadata }, spec };
}

describe('Pod', () => {
  const live = pod(
    {
      containers: [
        {
          name: 'app',
          image: 'app:1',
          args: ['--a', '--b'],
          ports: [
            { containerPort: 80, protocol: 'TCP' },
            { containerPort: 443, protocol: 'TCP' },
          ],
          env: [
            { name: 'A', value: '1' },
            { name: 'DEBUG', value: 'true' },
          ],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        },
        { name: 'sidecar', image: 'side:1' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'a', operator: 'Exists' }],
    },
    { labels: { app: 'web', tier: 'fe' }, finalizers: ['a', 'b'], ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u1' }] },
  );

  it('containers merge by name: one image changes, everything else stays', () => {
    const out = strategicMergePatch(live, { spec: { containers: [{ name: 'app', image: 'app:2' }] } }, podSchema);
    expect(out.spec.containers.map((c: Json) => [c.name, c.image])).toEqual([
      ['app', 'app:2'],
      ['sidecar', 'side:1'],
    ]);
    expect(out.spec.containers[0]!.ports).toHaveLength(2);
    expect(out.spec.containers[0]!.env).toHaveLength(2);
  });

  it('a container without a name is refused with strategicpatch’s text', () => {
    expect(() => strategicMergePatch(live, { spec: { containers: [{ image: 'nginx:2' }] } }, podSchema)).toThrow(
      'map: map[image:nginx:2] does not contain declared merge key: name',
    );
  });

  it('ports merge by containerPort (the patch merge key, not the list-map keys)', () => {
    const out = strategicMergePatch(live, { spec: { containers: [{ name: 'app', ports: [{ containerPort: 443, name: 'https' }, { containerPort: 8080 }] }] } }, podSchema);
    // 80 is live-only and came before 443 in the live list, so it stays in front.
    expect(out.spec.containers[0]!.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP', name: 'https' }, { containerPort: 8080 }]);
  });

  it('env merges by name; $patch: delete removes a variable', () => {
    const out = strategicMergePatch(
      live,
      { spec: { containers: [{ name: 'app', env: [{ name: 'DEBUG', $patch: 'delete' }, { name: 'B', value: '2' }] }] } },
      podSchema,
    );
    expect(out.spec.containers[0]!.env).toEqual([
      { name: 'B', value: '2' },
      { name: 'A', value: '1' },
    ]);
  });

  it('args and tolerations have no patch strategy: replaced wholesale', () => {
    const out = strategicMergePatch(
      live,
      { spec: { tolerations: [{ key: 'b', operator: 'Exists' }], containers: [{ name: 'app', args: ['--c'] }] } },
      podSchema,
    );
    expect(out.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
    expect(out.spec.containers[0]!.args).toEqual(['--c']);
  });

  it('volumes (merge,retainKeys): switching a volume source with $retainKeys drops the old source', () => {
    const out = strategicMergePatch(
      live,
      { spec: { volumes: [{ name: 'data', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } },
      podSchema,
    );
    expect(out.spec.volumes).toEqual([{ name: 'data', configMap: { name: 'cm' } }]);
  });

  it('volumes without $retainKeys merge the sources together (what kubectl edit avoids by sending it)', () => {
    const out = strategicMergePatch(live, { spec: { volumes: [{ name: 'data', configMap: { name: 'cm' } }] } }, podSchema);
    expect(out.spec.volumes).toEqual([{ name: 'data', emptyDir: {}, configMap: { name: 'cm' } }]);
  });

  it('labels merge and null deletes one; finalizers are a set with $deleteFromPrimitiveList', () => {
    const out = strategicMergePatch(
      live,
      { metadata: { labels: { tier: null, env: 'prod' }, finalizers: ['c', 'a'], '$deleteFromPrimitiveList/finalizers': ['b'] } },
      podSchema,
    );
    expect(out.metadata.labels).toEqual({ app: 'web', env: 'prod' });
    expect(out.metadata.finalizers).toEqual(['c', 'a']);
  });

  it('ownerReferences merge by uid', () => {
    const out = strategicMergePatch(live, { metadata: { ownerReferences: [{ uid: 'u2', apiVersion: 'v1', kind: 'Y', name: 'y' }, { uid: 'u1', controller: true }] } }, podSchema);
    expect(out.metadata.ownerReferences).toEqual([
      { uid: 'u2', apiVersion: 'v1', kind: 'Y', name: 'y' },
      { apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u1', controller: true },
    ]);
  });

  it('nodeSelector (an atomic map for apply) still merges key by key in a strategic merge patch', () => {
    const out = strategicMergePatch(pod({ nodeSelector: { disk: 'ssd' } }), { spec: { nodeSelector: { zone: 'a' } } }, podSchema);
    expect(out.spec['nodeSelector']).toEqual({ disk: 'ssd', zone: 'a' });
  });

  it('a kubectl apply style patch: $setElementOrder orders containers, new ones included', () => {
    const out = strategicMergePatch(
      live,
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'init' }, { name: 'sidecar' }, { name: 'app' }],
          containers: [{ name: 'init', image: 'init:1' }, { name: 'app', image: 'app:3' }],
        },
      },
      podSchema,
    );
    expect(out.spec.containers.map((c: Json) => `${c.name}=${c.image}`)).toEqual(['init=init:1', 'sidecar=side:1', 'app=app:3']);
  });

  it('a merge into a field Pod does not have is refused', () => {
    expect(() => strategicMergePatch({ ...live, spec: { ...live.spec, bogus: { a: 1 } } }, { spec: { bogus: { b: 2 } } }, podSchema)).toThrow(
      'unable to find api field in struct PodSpec for the json field "bogus"',
    );
  });
});

describe('Deployment', () => {
  const live = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
    },
  };

  it('strategy (retainKeys): switching to Recreate with $retainKeys clears rollingUpdate', () => {
    const out = strategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, deploymentSchema);
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('strategy without $retainKeys keeps rollingUpdate', () => {
    const out = strategicMergePatch(live, { spec: { strategy: { type: 'Recreate' } } }, deploymentSchema);
    expect(out.spec.strategy).toEqual({ type: 'Recreate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
  });

  it('replicas and the pod template merge through the nested schema', () => {
    const out = strategicMergePatch(
      live,
      { spec: { replicas: 3, template: { spec: { containers: [{ name: 'app', image: 'app:2' }, { name: 'log', image: 'log:1' }] } } } },
      deploymentSchema,
    );
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'app', image: 'app:2' },
      { name: 'log', image: 'log:1' },
    ]);
  });

  it('the patch client-side kubectl apply sends when a container, an env var and a label go away', () => {
    const current = {
      ...live,
      metadata: { name: 'web', labels: { app: 'web', tier: 'fe' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"old":true}\n', other: 'x' } },
      spec: {
        ...live.spec,
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
              { name: 'log', image: 'log:1' },
            ],
          },
        },
      },
    };
    // What kubectl's three-way diff produces (deletions as $patch: delete, $setElementOrder lists).
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}\n' }, labels: { tier: null } },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }],
            containers: [
              { '$setElementOrder/env': [{ name: 'A' }], env: [{ $patch: 'delete', name: 'B' }], name: 'app' },
              { $patch: 'delete', name: 'log' },
            ],
          },
        },
      },
    };
    const out = strategicMergePatch(current, patch, deploymentSchema);
    expect(out.metadata).toEqual({ name: 'web', labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}\n', other: 'x' } });
    expect(out.spec.template.spec.containers).toEqual([{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }]);
    expect(out.spec.strategy).toEqual(live.spec.strategy);
  });

  it('the selector (no strategy on LabelSelector in a Deployment) merges its matchLabels', () => {
    const out = strategicMergePatch(live, { spec: { selector: { matchLabels: { tier: 'fe' } } } }, deploymentSchema);
    expect(out.spec.selector).toEqual({ matchLabels: { app: 'web', tier: 'fe' } });
  });
});

describe('other built-in strategies', () => {
  it('PodDisruptionBudget selector has strategy replace: replaced, not merged', () => {
    const live = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web', tier: 'fe' } } } };
    const out = strategicMergePatch(live, { spec: { selector: { matchLabels: { app: 'api' } } } }, schemaOf('policy', 'v1', 'PodDisruptionBudget'));
    expect(out).toEqual({ ...live, spec: { minAvailable: 1, selector: { matchLabels: { app: 'api' } } } });
  });

  it('a ControllerRevision’s data (RawExtension) cannot be merged into', () => {
    const live = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { spec: { a: 1 } } };
    expect(() => strategicMergePatch(live, { data: { spec: { b: 2 } } }, schemaOf('apps', 'v1', 'ControllerRevision'))).toThrow(
      'unable to find api field in struct RawExtension for the json field "spec"',
    );
    // A scalar inside it is simply replaced.
    expect(strategicMergePatch({ ...live, data: { x: 1 } }, { data: { x: 2 } }, schemaOf('apps', 'v1', 'ControllerRevision'))).toEqual({ ...live, data: { x: 2 } });
  });

  it('Service ports merge by port', () => {
    const live = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const out = strategicMergePatch(live, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, schemaOf('', 'v1', 'Service'));
    expect(out).toEqual({ ...live, spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } });
  });
});
