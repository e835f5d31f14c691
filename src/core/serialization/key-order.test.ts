// The key order of raw JSON answers (create, get, list, watch) is the order
// kube-apiserver 1.32 writes: built-in kinds in their Go struct's declaration
// order with map keys sorted, custom resources with every object's keys
// sorted. The expected orders below are copied from the Go sources
// (k8s.io/api/core/v1 and apps/v1 types.go, apimachinery's ObjectMeta), not
// from the generated table.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type WatchEvent } from '../../test-support/api-harness';
import { manualClock } from '../clock';
import { createApiServer } from '../server';
import { openStore } from '../storage/mvcc-store';
import { createEstablished, cronTab, cronTabCrd } from '../crd/tests/fixtures';
import { DecodeCache } from '../api/object-codec';
import { inOrderKeyValue } from '../api/resource-store';
import type { ServerContext } from '../api/context';
import type { ServedResource } from '../api/registry';

// TypeMeta is embedded first; then the kind's own fields.
const CONFIGMAP = ['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'binaryData'];
const OBJECT_META = [
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
];
const MANAGED_FIELDS_ENTRY = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];
const SERVICE_SPEC = [
  'ports', 'selector', 'clusterIP', 'clusterIPs', 'type', 'externalIPs', 'sessionAffinity', 'loadBalancerIP', 'loadBalancerSourceRanges',
  'externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses', 'sessionAffinityConfig', 'ipFamilies',
  'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution',
];
const SERVICE_PORT = ['name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort'];
const DEPLOYMENT_SPEC = ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'];
const DEPLOYMENT_STRATEGY = ['type', 'rollingUpdate'];
const ROLLING_UPDATE = ['maxUnavailable', 'maxSurge'];
const POD_SPEC = [
  'volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds',
  'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID',
  'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName', 'tolerations',
  'hostAliases', 'priorityClassName', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy',
  'overhead', 'topologySpreadConstraints', 'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims', 'resources',
];
const CONTAINER = [
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy', 'restartPolicy', 'volumeMounts',
  'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath', 'terminationMessagePolicy',
  'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty',
];
const CONTAINER_PORT = ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'];
// Volume: name, then VolumeSource's fields (embedded with json:",inline").
const VOLUME = ['name', 'hostPath', 'emptyDir', 'secret', 'configMap', 'projected'];
const POD_STATUS = ['phase', 'conditions', 'message', 'reason', 'nominatedNodeName', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'qosClass'];

type Json = Record<string, unknown>;

/**
 * The keys of `obj` must be exactly those of `order` that it has, in that
 * order; `atLeast` keeps the check from passing on an almost empty object.
 */
function expectOrder(obj: unknown, order: readonly string[], atLeast = 1): void {
  const keys = Object.keys(obj as Json);
  expect(keys.length).toBeGreaterThanOrEqual(atLeast);
  expect(keys).toEqual(order.filter((k) => keys.includes(k)));
}

function expectSorted(obj: unknown, atLeast = 2): void {
  const keys = Object.keys(obj as Json);
  expect(keys.length).toBeGreaterThanOrEqual(atLeast);
  expect(keys).toEqual([...keys].sort());
}

/** Every object of a custom resource has its keys sorted (unstructured content), at every level. */
function expectSortedDeep(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(expectSortedDeep);
  if (value === null || typeof value !== 'object') return;
  const keys = Object.keys(value);
  expect(keys).toEqual([...keys].sort());
  for (const k of keys) expectSortedDeep((value as Json)[k]);
}

/** The raw answer parsed with its key order (JSON.parse keeps it for non-integer keys). */
const raw = (text: string): Json => JSON.parse(text) as Json;

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const SVC = '/api/v1/namespaces/default/services';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const POD = '/api/v1/namespaces/default/pods';

describe('ConfigMap', () => {
  // The example: labels {z, a} and data {b, a} come back sorted.
  const body = '{"data":{"b":"1","a":"2"},"metadata":{"name":"ord","labels":{"z":"1","a":"2"}},"kind":"ConfigMap","apiVersion":"v1"}';

  function check(obj: Json): void {
    expectOrder(obj, CONFIGMAP, 4);
    const meta = obj['metadata'] as Json;
    expectOrder(meta, OBJECT_META, 6);
    expectSorted(meta['labels']);
    expectSorted(obj['data']);
    for (const entry of meta['managedFields'] as Json[]) expectOrder(entry, MANAGED_FIELDS_ENTRY, 6);
  }

  it('create, get, list and watch answer in Go struct order with map keys sorted', async () => {
    const watch = await t.watch(`${CM}?watch=1&resourceVersion=0`);
    await watch.next(1).catch(() => []); // kube-root-ca.crt or nothing, depending on controllers
    const created = await t.post(CM, body);
    expect(created.status).toBe(201);
    check(raw(created.text));
    // kube writes the whole body in this order, so the exact text starts so:
    expect(created.text.startsWith('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"ord","namespace":"default","uid":')).toBe(true);

    const got = await t.get(`${CM}/ord`);
    check(raw(got.text));
    expect(got.text).toMatch(/"labels":\{"a":"2","z":"1"\}.*\},"data":\{"a":"2","b":"1"\}\}\n$/);

    const list = await t.get(CM);
    const item = (raw(list.text)['items'] as Json[]).find((i) => (i['metadata'] as Json)['name'] === 'ord')!;
    // List items of built-in kinds carry no kind/apiVersion.
    expect(Object.keys(item)).toEqual(['metadata', 'data']);
    check({ kind: 'ConfigMap', apiVersion: 'v1', ...item });

    const events = await watch.next(1);
    const added = events.find((e: WatchEvent) => e.object.metadata?.name === 'ord')!;
    expect(added.type).toBe('ADDED');
    check(added.object);
    await watch.cancel();
  });

  it('update and patch answers keep the order', async () => {
    await t.post(CM, body);
    const patched = await t.patch(`${CM}/ord`, '{"data":{"c":"3"},"metadata":{"labels":{"m":"0"}}}', 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    check(raw(patched.text));
    expect(Object.keys((raw(patched.text)['data'] as Json))).toEqual(['a', 'b', 'c']);
    const current = raw(patched.text);
    const put = await t.put(`${CM}/ord`, JSON.stringify({ data: { z: '1', y: '2' }, metadata: current['metadata'], apiVersion: 'v1', kind: 'ConfigMap' }));
    expect(put.status).toBe(200);
    check(raw(put.text));
  });

  it('a dry-run create answers in order too (nothing stored)', async () => {
    const res = await t.post(`${CM}?dryRun=All`, body);
    expect(res.status).toBe(201);
    check(raw(res.text));
  });

  it('integer-like map keys come in Go\'s byte order ("10" before "9"), which a JS object cannot hold', async () => {
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nums' }, data: { a: 'x', '9': 'y', '10': 'z' } });
    const got = await t.get(`${CM}/nums`);
    expect(got.text).toContain('"data":{"10":"z","9":"y","a":"x"}');
    const pretty = await t.get(`${CM}/nums?pretty=true`);
    expect(pretty.text.indexOf('"10"')).toBeLessThan(pretty.text.indexOf('"9"'));
  });

  it("watch events are written as Go's json.Encoder writes them: map order and Go's escapes", async () => {
    const response = await t.server.handle(new Request(`http://kubetab.test${CM}?watch=1&fieldSelector=metadata.name%3Dwatched`));
    const reader = response.body!.getReader();
    await t.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { '9': '<b>', '10': 'a&b' } });
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/^\{"type":"ADDED","object":\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"watched",/);
    expect(text).toContain('"data":{"10":"a\\u0026b","9":"\\u003cb\\u003e"}}}\n');
    await reader.cancel();
  });
});

describe('Service', () => {
  it('spec and ports in ServiceSpec / ServicePort order, selector sorted', async () => {
    const svc = {
      spec: { ports: [{ targetPort: 8080, port: 80, protocol: 'TCP', name: 'http' }], type: 'ClusterIP', selector: { tier: 'web', app: 'a' } },
      metadata: { name: 'web' },
      apiVersion: 'v1',
      kind: 'Service',
    };
    const created = await t.post(SVC, svc);
    expect(created.status).toBe(201);
    for (const obj of [raw(created.text), raw((await t.get(`${SVC}/web`)).text)]) {
      expectOrder(obj, ['kind', 'apiVersion', 'metadata', 'spec', 'status'], 5);
      const spec = obj['spec'] as Json;
      // Defaulted fields (clusterIP, clusterIPs, sessionAffinity, ipFamilies, ipFamilyPolicy, internalTrafficPolicy) take their places.
      expectOrder(spec, SERVICE_SPEC, 8);
      expectOrder((spec['ports'] as Json[])[0], SERVICE_PORT, 4);
      expect(Object.keys(spec['selector'] as Json)).toEqual(['app', 'tier']);
    }
  });
});

describe('Deployment', () => {
  const deployment = {
    status: {},
    spec: {
      template: {
        spec: {
          containers: [{ ports: [{ protocol: 'TCP', containerPort: 80, name: 'http' }], resources: { requests: { memory: '64Mi', cpu: '100m' } }, image: 'nginx', name: 'web' }],
          nodeSelector: { zone: 'a', disk: 'ssd' },
        },
        metadata: { labels: { tier: 'web', app: 'd' } },
      },
      selector: { matchLabels: { tier: 'web', app: 'd' } },
      replicas: 2,
    },
    metadata: { labels: { tier: 'web', app: 'd' }, name: 'd' },
    kind: 'Deployment',
    apiVersion: 'apps/v1',
  };

  function check(obj: Json): void {
    expectOrder(obj, ['kind', 'apiVersion', 'metadata', 'spec', 'status'], 4);
    const spec = obj['spec'] as Json;
    expectOrder(spec, DEPLOYMENT_SPEC, 6);
    expect(Object.keys((spec['selector'] as Json)['matchLabels'] as Json)).toEqual(['app', 'tier']);
    expectOrder(spec['strategy'], DEPLOYMENT_STRATEGY, 2);
    expectOrder((spec['strategy'] as Json)['rollingUpdate'], ROLLING_UPDATE, 2);
    const template = spec['template'] as Json;
    expectOrder(template, ['metadata', 'spec'], 2);
    const podSpec = template['spec'] as Json;
    expectOrder(podSpec, POD_SPEC, 5);
    expect(Object.keys(podSpec['nodeSelector'] as Json)).toEqual(['disk', 'zone']);
    const container = (podSpec['containers'] as Json[])[0]!;
    expectOrder(container, CONTAINER, 6);
    expectOrder((container['ports'] as Json[])[0], CONTAINER_PORT, 3);
    expect(Object.keys((container['resources'] as Json)['requests'] as Json)).toEqual(['cpu', 'memory']);
  }

  it('create, get, list and watch: nested structs in declaration order, maps sorted', async () => {
    const watch = await t.watch(`${DEPLOY}?watch=1`);
    const created = await t.post(DEPLOY, deployment);
    expect(created.status).toBe(201);
    check(raw(created.text));
    check(raw((await t.get(`${DEPLOY}/d`)).text));
    const item = (raw((await t.get(DEPLOY)).text)['items'] as Json[])[0]!;
    check({ kind: 'Deployment', apiVersion: 'apps/v1', ...item });
    const [event] = await watch.next(1);
    check(event!.object);
    await watch.cancel();
  });

  it('the text starts as kube writes it', async () => {
    const created = await t.post(DEPLOY, deployment);
    expect(created.text).toMatch(/^\{"kind":"Deployment","apiVersion":"apps\/v1","metadata":\{"name":"d","namespace":"default","uid":"[^"]+","resourceVersion":"\d+","generation":1,"creationTimestamp":"[^"]+","labels":\{"app":"d","tier":"web"\},"managedFields":/);
    expect(created.text).toContain('"spec":{"replicas":2,"selector":{"matchLabels":{"app":"d","tier":"web"}},"template":{"metadata":{');
  });
});

describe('Pod', () => {
  it('PodSpec: volumes, then initContainers (field 20), then containers (field 2); Volume inlines VolumeSource after name', async () => {
    const pod = {
      spec: {
        containers: [{ image: 'busybox', name: 'main', command: ['sh'] }],
        initContainers: [{ name: 'init', image: 'busybox' }],
        volumes: [{ configMap: { name: 'cfg' }, name: 'config' }],
      },
      metadata: { name: 'p', annotations: { 'z.example/x': '1', 'a.example/y': '2' } },
      apiVersion: 'v1',
      kind: 'Pod',
    };
    const created = await t.post(POD, pod);
    expect(created.status).toBe(201);
    const watch = await t.watch(`${POD}?watch=1&resourceVersion=0`);
    for (const obj of [raw(created.text), raw((await t.get(`${POD}/p`)).text), (await watch.next(1))[0]!.object as Json]) {
      expectOrder(obj, ['kind', 'apiVersion', 'metadata', 'spec', 'status'], 5);
      expect(Object.keys((obj['metadata'] as Json)['annotations'] as Json)).toEqual(['a.example/y', 'z.example/x']);
      const spec = obj['spec'] as Json;
      expectOrder(spec, POD_SPEC, 8);
      expect(Object.keys(spec).slice(0, 3)).toEqual(['volumes', 'initContainers', 'containers']);
      for (const volume of spec['volumes'] as Json[]) expectOrder(volume, VOLUME, 2);
      expect(Object.keys((spec['volumes'] as Json[])[0]!)).toEqual(['name', 'configMap']);
      expectOrder(obj['status'], POD_STATUS, 2);
    }
    await watch.cancel();
  });
});

describe('custom resource', () => {
  const PATH = '/apis/stable.example.com/v1/namespaces/default/crontabs';

  it('create, get, list and watch answer with every object\'s keys sorted (unstructured content)', async () => {
    await createEstablished(t, cronTabCrd(), PATH);
    const watch = await t.watch(`${PATH}?watch=1`);
    const body = cronTab('c', { tags: ['b', 'a'], replicas: 2, image: 'img', cronSpec: '* * * * */5', labels: { z: '1', a: '2' } });
    const created = await t.post(PATH, { ...body, metadata: { name: 'c', labels: { z: '1', a: '2' } } });
    expect(created.status).toBe(201);
    const objects = [raw(created.text), raw((await t.get(`${PATH}/c`)).text), (raw((await t.get(PATH)).text)['items'] as Json[])[0]!, (await watch.next(1))[0]!.object as Json];
    for (const obj of objects) {
      expectSortedDeep(obj);
      expect(Object.keys(obj)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
      // metadata sorted too (creationTimestamp, generation, labels, managedFields, name, …), and arrays keep their order.
      expect(Object.keys(obj['metadata'] as Json).slice(0, 3)).toEqual(['creationTimestamp', 'generation', 'labels']);
      expect((obj['spec'] as Json)['tags']).toEqual(['b', 'a']);
      const entry = ((obj['metadata'] as Json)['managedFields'] as Json[])[0]!;
      expect(Object.keys(entry)).toEqual(['apiVersion', 'fieldsType', 'fieldsV1', 'manager', 'operation', 'time']);
    }
    expect(created.text.startsWith('{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"creationTimestamp":')).toBe(true);
    // The stored text is sent as is, once: no second kind/apiVersion in front.
    const got = await t.get(`${PATH}/c`);
    expect(got.text.startsWith('{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{')).toBe(true);
    expect(got.text.match(/"kind":/g)).toHaveLength(1);
    // A list is unstructured too: apiVersion, items, kind, metadata; its metadata always has `continue` (empty on the last page).
    const listed = await t.get(PATH);
    expect(listed.text).toMatch(/^\{"apiVersion":"stable\.example\.com\/v1","items":\[\{"apiVersion":/);
    expect(listed.text).toMatch(/\],"kind":"CronTabList","metadata":\{"continue":"","resourceVersion":"\d+"\}\}\n$/);
    for (const query of ['?pretty=true', '?limit=1']) {
      const page = raw((await t.get(`${PATH}${query}`)).text);
      expect(Object.keys(page)).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
      expect(Object.keys(page['metadata'] as Json)).toEqual(['continue', 'resourceVersion']);
    }
    // A collection delete answers an unstructured list: its keys sorted too.
    const deleted = await t.del(PATH);
    expect(deleted.status).toBe(200);
    expect(Object.keys(raw(deleted.text))).toEqual(['apiVersion', 'items', 'kind', 'metadata']);
    expectSortedDeep(raw(deleted.text));
    await watch.cancel();
  });

  it('a CustomResourceDefinition itself is a built-in kind: struct order, and its schema\'s default keeps kube\'s re-marshaled (sorted) keys', async () => {
    const crd = cronTabCrd();
    const created = await t.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    expect(created.status).toBe(201);
    const obj = raw(created.text);
    expectOrder(obj['spec'], ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'], 4);
    const version = ((obj['spec'] as Json)['versions'] as Json[])[0]!;
    // CustomResourceDefinitionVersion: deprecated (7) and deprecationWarning (8) come before schema (4).
    expectOrder(version, ['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources', 'additionalPrinterColumns', 'selectableFields'], 5);
    const names = (obj['spec'] as Json)['names'] as Json;
    expectOrder(names, ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories'], 5);
  });
});

describe('text stored before the order was kept', () => {
  it('is answered in order by get and watch', async () => {
    const clock = manualClock();
    const store = await openStore({ clock });
    const server = await createApiServer({ store, clock, host: 'node', controllers: [] });
    try {
      // As an earlier KubeTab stored it: the client's order, ObjectMeta first-level order only.
      const old =
        '{"metadata":{"name":"old","namespace":"default","uid":"0f4e4e9e-1d7e-4b54-9b87-4a8b9f5b2e11","resourceVersion":"0","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"z":"1","a":"2"}},"data":{"b":"1","a":"2"}}';
      const kv = await store.create('/registry/core/configmaps/default/old', (rev) => old.replace('"resourceVersion":"0"', `"resourceVersion":"${rev}"`));
      const res = await server.handle(new Request('http://kubetab.test/api/v1/namespaces/default/configmaps/old'));
      const text = await res.text();
      expect(text).toBe(
        `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"old","namespace":"default","uid":"0f4e4e9e-1d7e-4b54-9b87-4a8b9f5b2e11","resourceVersion":"${kv.modRevision}","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"a":"2","z":"1"}},"data":{"a":"2","b":"1"}}\n`,
      );
      const watch = await server.handle(new Request('http://kubetab.test/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0'));
      const reader = watch.body!.getReader();
      let buffer = '';
      while (!buffer.includes('"old"')) buffer += new TextDecoder().decode((await reader.read()).value);
      expect(buffer).toContain('"labels":{"a":"2","z":"1"}},"data":{"a":"2","b":"1"}}');
      await reader.cancel();
      // A streamed list sends it in order too, the first time and from its kept bytes the next.
      for (let i = 0; i < 2; i++) {
        const list = await (await server.handle(new Request('http://kubetab.test/api/v1/namespaces/default/configmaps'))).text();
        expect(list).toContain('"labels":{"a":"2","z":"1"}},"data":{"a":"2","b":"1"}}');
      }
    } finally {
      await server.close();
    }
  });

  it('inOrderKeyValue gives the list path a key-value whose text is in order (once per stored value), and the stored one when it already is', () => {
    const ctx = { decodeCache: new DecodeCache() } as unknown as ServerContext;
    // A built-in resource (its schema is a reference to a built-in definition) served in its storage version.
    const served = {
      group: '',
      apiVersion: 'v1',
      storageVersion: 'v1',
      version: { name: 'v1', schema: { ref: 'io.k8s.api.core.v1.ConfigMap' } },
      definition: { kind: 'ConfigMap' },
    } as unknown as ServedResource;
    const kv = { key: '/registry/core/configmaps/default/a', createRevision: 5, modRevision: 5, version: 1, value: '{"data":{"b":"1","a":"2"},"metadata":{"name":"a","resourceVersion":"5"}}' };
    const ordered = inOrderKeyValue(ctx, served, kv);
    expect(ordered.value).toBe('{"metadata":{"name":"a","resourceVersion":"5"},"data":{"a":"2","b":"1"}}');
    expect(ordered.modRevision).toBe(5);
    expect(inOrderKeyValue(ctx, served, kv)).toBe(ordered);
    const current = { ...kv, key: '/registry/core/configmaps/default/b', value: ordered.value };
    expect(inOrderKeyValue(ctx, served, current)).toBe(current);
  });
});
