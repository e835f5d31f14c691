// Encoding built-in objects as application/vnd.kubernetes.protobuf (for
// responses to clients that prefer it), and JSON → protobuf → JSON round trips.

import { describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf } from './decode';
import { canEncodeProtobuf, encodeKubernetesProtobuf, ProtoEncodeError } from './encode';

const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const roundTrip = (obj: Record<string, unknown>) => decodeKubernetesProtobuf(encodeKubernetesProtobuf(obj)).object;

describe('byte-for-byte what the Go encoder writes', () => {
  // Rule: gogo writes value fields always (empty strings, zero numbers, empty
  // structs), pointers only when set, in field-number order. The bodies below
  // were captured from kubectl 1.32, so they come from the real encoder.
  const captured: Record<string, string> = {
    configmap: '6b3873000a0f0a0276311209436f6e6669674d617012220a180a017812001a0764656661756c7422002a0032003800420012060a01611201621a002200',
    secret: '6b3873000a0c0a0276311206536563726574122a0a180a017312001a0764656661756c7422002a00320038004200120c0a02707712067365637265741a001a002200',
    namespace: '6b3873000a0f0a02763112094e616d657370616365121b0a130a036e733112001a0022002a0032003800420012001a020a001a002200',
    serviceaccount: '6b3873000a140a027631120e536572766963654163636f756e74121c0a1a0a0373613112001a0764656661756c7422002a003200380042001a002200',
    tokenrequest: '6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e52657175657374121d0a100a0012001a0022002a00320038004200120320901c1a040a0012001a002200',
    selfsubjectaccessreview:
      '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123f0a100a0012001a0022002a0032003800420012210a1f0a0764656661756c7412066372656174651a0022002a04706f647332003a001a08080012001a0020001a002200',
    selfsubjectreview:
      '6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200',
    deployment:
      '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412bf010a260a0377656212001a0764656661756c7422002a003200380042005a0a0a0361707012037765621286010802120c0a0a0a0361707012037765621a6c0a1c0a0012001a0022002a003200380042005a0a0a036170701203776562124c122e0a056e67696e7812056e67696e782a00320a0a001000185022002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200',
  };
  for (const [name, body] of Object.entries(captured)) {
    it(`re-encodes the decoded kubectl ${name} body identically`, () => {
      const decoded = decodeKubernetesProtobuf(hex(body)).object;
      expect(toHex(encodeKubernetesProtobuf(decoded))).toBe(body);
    });
  }

  it('the envelope: typeMeta, raw, and empty contentEncoding/contentType', () => {
    const bytes = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    expect(toHex(bytes.subarray(0, 4))).toBe('6b387300');
    expect(toHex(bytes.subarray(-4))).toBe('1a002200');
  });

  it('map entries are sorted by key (Go byte order), whatever the JSON order', () => {
    const a = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { b: '2', a: '1', B: '0' } });
    const b = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { B: '0', a: '1', b: '2' } });
    expect(toHex(a)).toBe(toHex(b));
    expect(Object.keys(decodeKubernetesProtobuf(a).object['data'] as object)).toEqual(['B', 'a', 'b']);
  });

  it('metav1.Time is {seconds, nanos=0}; the zero time is an empty message', () => {
    const withTime = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { creationTimestamp: '2024-12-11T12:00:00Z' } });
    // ObjectMeta field 8 (creationTimestamp): 42 08 | seconds 08 c0fde5ba06 | nanos 10 00
    expect(toHex(withTime)).toContain('4208' + '08c0fde5ba06' + '1000');
    // Empty ObjectMeta: six empty strings, generation 0, and creationTimestamp as 42 00.
    const without = encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: {} });
    expect(toHex(without)).toContain('0a10' + '0a0012001a0022002a003200' + '3800' + '4200');
  });
});

describe('JSON → protobuf → JSON', () => {
  it('ConfigMap with binaryData and immutable', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', resourceVersion: '7' }, data: { k: 'v' }, binaryData: { b: 'AAEC' }, immutable: false };
    expect(roundTrip(cm)).toEqual(cm);
  });

  it('Secret: base64 data survives, type kept', () => {
    const s = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { 'tls.crt': 'LS0tLS1CRUdJTg==', empty: '' }, type: 'kubernetes.io/tls' };
    expect(roundTrip(s)).toEqual(s);
  });

  it('Namespace with finalizers, labels, annotations and status', () => {
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', uid: '0b7f…', labels: { 'kubernetes.io/metadata.name': 'team-a' }, annotations: { note: 'x' }, creationTimestamp: '2024-12-11T12:00:00Z' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
    expect(roundTrip(ns)).toEqual(ns);
  });

  it('ServiceAccount with secrets and automountServiceAccountToken=false (a pointer: false is kept)', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'build', namespace: 'ci' }, secrets: [{ name: 'build-token' }], automountServiceAccountToken: false };
    expect(roundTrip(sa)).toEqual(sa);
  });

  it('TokenRequest with audiences, bound object and status', () => {
    const tr = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name: 'build', namespace: 'ci' },
      spec: { audiences: ['https://kubernetes.default.svc'], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u-1' } },
      status: { token: 'eyJhbGciOi…', expirationTimestamp: '2024-12-11T13:00:00Z' },
    };
    expect(roundTrip(tr)).toEqual(tr);
  });

  it('SelfSubjectAccessReview with field/label selector attributes', () => {
    const ssar = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'list',
          resource: 'pods',
          labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] },
          fieldSelector: { rawSelector: 'spec.nodeName=n1' },
        },
      },
      status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "admin"' },
    };
    expect(roundTrip(ssar)).toEqual(ssar);
  });

  it('SelfSubjectReview with groups and extra (named-slice wrapper)', () => {
    const ssr = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: '2024-12-11T12:00:00Z' },
      status: { userInfo: { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'], extra: { scopes: ['a', 'b'] } } },
    };
    expect(roundTrip(ssr)).toEqual(ssr);
  });

  it('Pod: resources (Quantity), IntOrString probes, volumes (inline VolumeSource), status conditions', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } },
      spec: {
        volumes: [{ name: 'cfg', configMap: { name: 'web-config', defaultMode: 420 } }],
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
            volumeMounts: [{ name: 'cfg', mountPath: '/etc/web', readOnly: true }],
            livenessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10 },
            readinessProbe: { tcpSocket: { port: 'http' } },
            terminationMessagePath: '/dev/termination-log',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        priority: 0,
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-12-11T12:00:05Z' }],
        podIP: '10.0.0.7',
        qosClass: 'Burstable',
      },
    };
    expect(roundTrip(pod)).toEqual(pod);
  });

  it('Deployment with a LabelSelector (matchLabels and matchExpressions) and a rolling update strategy', () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', generation: 3 },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
        template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'web', image: 'nginx', resources: {} }] } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: { observedGeneration: 3, replicas: 0 },
    };
    // status.replicas is an omitempty int32: a zero value is not written back to JSON.
    const { replicas: _dropped, ...statusWithoutReplicas } = dep.status;
    expect(roundTrip(dep)).toEqual({ ...dep, status: statusWithoutReplicas });
  });

  it('core/v1 Event with MicroTime eventTime and series; events.k8s.io/v1 Event', () => {
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-0.17f', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'u-1', apiVersion: 'v1' },
      reason: 'Pulled',
      message: 'Container image "nginx" already present on machine',
      source: { component: 'kubelet', host: 'node-1' },
      count: 1,
      type: 'Normal',
      eventTime: '2024-12-11T12:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2024-12-11T12:01:00.000001Z' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
    };
    expect(roundTrip(ev)).toEqual(ev);
    const ev2 = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default' },
      eventTime: '2024-12-11T12:00:00.000000Z',
      reportingController: 'kubectl',
      reportingInstance: 'laptop',
      action: 'Scale',
      reason: 'Manual',
      regarding: { kind: 'Deployment', name: 'web' },
      note: 'scaled',
      type: 'Normal',
      deprecatedSource: {},
    };
    expect(roundTrip(ev2)).toEqual(ev2);
  });

  it('Status (errors are served in the encoding the client asked for)', () => {
    const status = {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    };
    expect(roundTrip(status)).toEqual(status);
  });

  it('CustomResourceDefinition: $ref/x-kubernetes-* names, schema unions, JSON defaults, doubles', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'crontabs.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    'x-kubernetes-preserve-unknown-fields': true,
                    properties: {
                      replicas: { type: 'integer', minimum: 1, maximum: 10.5, default: 1 },
                      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
                      mode: { type: 'string', enum: ['a', 'b'] },
                    },
                    additionalProperties: false,
                    'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'too many', optionalOldSelf: true }],
                  },
                },
              },
            },
            subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            selectableFields: [{ jsonPath: '.spec.mode' }],
          },
        ],
        conversion: { strategy: 'None' },
      },
      status: { conditions: [{ type: 'Established', status: 'True', lastTransitionTime: '2024-12-11T12:00:00Z' }], acceptedNames: { plural: 'crontabs', kind: 'CronTab' }, storedVersions: ['v1'] },
    };
    expect(roundTrip(crd)).toEqual(crd);
  });
});

describe('kinds without a protobuf form', () => {
  it('custom resources cannot be encoded', () => {
    expect(canEncodeProtobuf('stable.example.com/v1', 'CronTab')).toBe(false);
    expect(canEncodeProtobuf('v1', 'ConfigMap')).toBe(true);
    expect(() => encodeKubernetesProtobuf({ apiVersion: 'stable.example.com/v1', kind: 'CronTab' })).toThrow(/no protobuf message/);
  });

  it('a value that does not fit its field is a ProtoEncodeError', () => {
    expect(() => encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: 'yesterday' } })).toThrow(ProtoEncodeError);
    expect(() => encodeKubernetesProtobuf({ apiVersion: 'v1', kind: 'Secret', metadata: {}, data: { a: 'not base64!' } })).toThrow(ProtoEncodeError);
  });
});

describe('watch stream frames (application/vnd.kubernetes.protobuf;stream=watch)', () => {
  it('a 4-byte big-endian length, then a bare WatchEvent whose object is the enveloped object', async () => {
    const { encodeProtobufWatchEvent } = await import('./watch');
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', resourceVersion: '5' }, data: { a: 'b' } };
    const frame = encodeProtobufWatchEvent('ADDED', cm);
    const length = new DataView(frame.buffer).getUint32(0, false);
    expect(length).toBe(frame.length - 4);
    const event = frame.subarray(4);
    // type (field 1) "ADDED", no k8s\0 prefix on the event itself.
    expect(toHex(event.subarray(0, 7))).toBe('0a05' + '4144444544');
    // object (field 2) → RawExtension.raw (field 1) → the enveloped ConfigMap.
    const enveloped = encodeKubernetesProtobuf(cm);
    expect(toHex(event.subarray(7))).toBe('12' + (enveloped.length + 2).toString(16) + '0a' + enveloped.length.toString(16) + toHex(enveloped));
    expect(decodeKubernetesProtobuf(event.subarray(-enveloped.length)).object).toEqual(cm);
  });
});
