// Decoding request bodies in application/vnd.kubernetes.protobuf (spec 000:
// "Binary envelope for the Protobuf encoding"). The inputs are independent of
// this module's encoder: bodies captured from kubectl 1.32 and bytes built by
// hand with the small writer below.

import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status';
import { decodeKubernetesProtobuf } from './decode';

// --- A test-only protobuf builder: tags and payloads written out by hand. ---
const utf8 = (s: string) => Array.from(new TextEncoder().encode(s));
function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}
const key = (field: number, wireType: number) => varint(field * 8 + wireType);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const str = (field: number, s: string) => [...key(field, 2), ...varint(utf8(s).length), ...utf8(s)];
const msg = (field: number, ...parts: number[][]) => {
  const body = parts.flat();
  return [...key(field, 2), ...varint(body.length), ...body];
};
const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const envelope = (apiVersion: string, kind: string, ...object: number[][]) =>
  Uint8Array.from([...MAGIC, ...msg(1, str(1, apiVersion), str(2, kind)), ...msg(2, ...object)]);
const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));

function decodeError(bytes: Uint8Array, expected?: { group: string; version: string; kind: string }): StatusError {
  try {
    decodeKubernetesProtobuf(bytes, expected);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

const CONFIGMAP = { group: '', version: 'v1', kind: 'ConfigMap' };

describe('bodies sent by kubectl 1.32 (captured from `kubectl create …`)', () => {
  // Rule: the decoded object is the JSON kubectl would have sent for the same Go struct.
  it('kubectl create configmap x --from-literal=a=b', () => {
    const body = hex('6b3873000a0f0a0276311209436f6e6669674d617012220a180a017812001a0764656661756c7422002a0032003800420012060a01611201621a002200');
    expect(decodeKubernetesProtobuf(body, CONFIGMAP)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: 'b' } },
    });
  });

  it('kubectl create secret generic (bytes values become base64 strings)', () => {
    const body = hex('6b3873000a0c0a0276311206536563726574122a0a180a017312001a0764656661756c7422002a00320038004200120c0a02707712067365637265741a001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'default' },
      data: { pw: 'c2VjcmV0' },
    });
  });

  it('kubectl create namespace (empty spec/status structs stay as {})', () => {
    const body = hex('6b3873000a0f0a02763112094e616d657370616365121b0a130a036e733112001a0022002a0032003800420012001a020a001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' }, spec: {}, status: {} });
  });

  it('kubectl create serviceaccount', () => {
    const body = hex('6b3873000a140a027631120e536572766963654163636f756e74121c0a1a0a0373613112001a0764656661756c7422002a003200380042001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa1', namespace: 'default' } });
  });

  it('kubectl create token --duration=1h (TokenRequest: pointer int64 kept, non-omitempty token kept)', () => {
    const body = hex('6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e52657175657374121d0a100a0012001a0022002a00320038004200120320901c1a040a0012001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { expirationSeconds: 3600 },
      status: { token: '' },
    });
  });

  it('kubectl auth can-i create pods (SelfSubjectAccessReview: allowed=false is not omitempty)', () => {
    const body = hex('6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123f0a100a0012001a0022002a0032003800420012210a1f0a0764656661756c7412066372656174651a0022002a04706f647332003a001a08080012001a0020001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
      status: { allowed: false },
    });
  });

  it('kubectl auth whoami (SelfSubjectReview)', () => {
    const body = hex('6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a0032003800420012060a040a0012001a002200');
    expect(decodeKubernetesProtobuf(body).object).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: {},
      status: { userInfo: {} },
    });
  });

  it('kubectl create deployment --replicas=2 --port=80 (LabelSelector, pointer replicas, pod template)', () => {
    const body = hex(
      '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412bf010a260a0377656212001a0764656661756c7422002a003200380042005a0a0a0361707012037765621286010802120c0a0a0a0361707012037765621a6c0a1c0a0012001a0022002a003200380042005a0a0a036170701203776562124c122e0a056e67696e7812056e67696e782a00320a0a001000185022002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200',
    );
    expect(decodeKubernetesProtobuf(body, { group: 'apps', version: 'v1', kind: 'Deployment' }).object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    });
  });
});

describe('hand-built messages', () => {
  it('Pod: containers, ports, Quantity maps, IntOrString probes (number and name), inline ProbeHandler, negative int32', () => {
    const bytes = envelope(
      'v1',
      'Pod',
      msg(1, str(1, 'web-0'), str(3, 'default'), msg(11, str(1, 'app'), str(2, 'web'))),
      msg(
        2,
        msg(
          2,
          str(1, 'web'),
          str(2, 'nginx:1.27'),
          msg(6, str(1, 'http'), int(3, 8080), str(4, 'TCP')),
          msg(8, msg(1, str(1, 'cpu'), msg(2, str(1, '500m'))), msg(2, str(1, 'memory'), msg(2, str(1, '64Mi')))),
          // livenessProbe: handler(1) → httpGet(2){path, port IntOrString{type 0, intVal 8080, strVal ""}}, initialDelaySeconds 5
          msg(10, msg(1, msg(2, str(1, '/healthz'), msg(2, int(1, 0), int(2, 8080), str(3, '')))), int(2, 5)),
          // readinessProbe: handler → tcpSocket(3){port IntOrString{type 1, strVal "http"}}
          msg(11, msg(1, msg(3, msg(1, int(1, 1), int(2, 0), str(3, 'http'))))),
        ),
        str(3, 'Always'),
        int(4, 30),
        int(25, -5), // priority, a pointer int32 sent as a 10-byte varint
      ),
    );
    expect(bytes.slice(-10)).toEqual(Uint8Array.from([0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    expect(decodeKubernetesProtobuf(bytes, { group: '', version: 'v1', kind: 'Pod' }).object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', namespace: 'default', labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m' }, requests: { memory: '64Mi' } },
            livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5 },
            readinessProbe: { tcpSocket: { port: 'http' } },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        priority: -5,
      },
    });
  });

  it('Event: MicroTime keeps microseconds, Time drops the fraction, non-omitempty strings appear empty', () => {
    const at = 1733918400; // 2024-12-11T12:00:00Z
    const bytes = envelope(
      'v1',
      'Event',
      msg(1, str(1, 'web-0.1'), str(3, 'default')),
      msg(2, str(1, 'Pod'), str(2, 'default'), str(3, 'web-0')),
      str(3, 'Started'),
      str(4, 'Started container web'),
      msg(6, int(1, at), int(2, 999)),
      str(9, 'Normal'),
      msg(10, int(1, at), int(2, 123456789)),
      msg(11, int(1, 2), msg(2, int(1, at + 60), int(2, 5000))),
    );
    expect(decodeKubernetesProtobuf(bytes).object).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web-0.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0' },
      reason: 'Started',
      message: 'Started container web',
      firstTimestamp: '2024-12-11T12:00:00Z',
      type: 'Normal',
      eventTime: '2024-12-11T12:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2024-12-11T12:01:00.000005Z' },
      // Go fields without omitempty show their zero value in JSON.
      reportingComponent: '',
      reportingInstance: '',
    });
  });

  it('an empty Time message is the zero time, which Go writes as null (omitted)', () => {
    const bytes = envelope('v1', 'ConfigMap', msg(1, str(1, 'x'), msg(8)));
    expect(decodeKubernetesProtobuf(bytes).object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  });

  it('unknown field numbers are skipped, as gogo does', () => {
    const bytes = envelope('v1', 'ConfigMap', msg(1, str(1, 'x'), int(999, 7), str(998, 'ignored')), int(50, 1));
    expect(decodeKubernetesProtobuf(bytes).object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  });

  it('missing kind and version are filled from the endpoint (copyKindDefaults)', () => {
    const bytes = Uint8Array.from([...MAGIC, ...msg(1), ...msg(2, msg(1, str(1, 'x')))]);
    expect(decodeKubernetesProtobuf(bytes, CONFIGMAP)).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', object: { metadata: { name: 'x' } } });
  });

  it('a body of another built-in kind decodes as that kind (the type-meta check reports the mismatch)', () => {
    const bytes = envelope('v1', 'Secret', msg(1, str(1, 's')));
    expect(decodeKubernetesProtobuf(bytes, CONFIGMAP)).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
  });

  it('an embedded RawExtension in protobuf form is decoded too (ControllerRevision.data)', () => {
    const inner = envelope('v1', 'ConfigMap', msg(1, str(1, 'x')));
    const bytes = envelope('apps/v1', 'ControllerRevision', msg(1, str(1, 'rev-1')), msg(2, [...key(1, 2), ...varint(inner.length), ...inner]), int(3, 4));
    expect(decodeKubernetesProtobuf(bytes).object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'rev-1' },
      data: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      revision: 4,
    });
  });

  it('named-slice wrappers (UserInfo.extra values) are JSON arrays', () => {
    const bytes = envelope(
      'authentication.k8s.io/v1',
      'TokenReview',
      msg(3, int(1, 1), msg(2, str(1, 'jane'), str(3, 'dev'), msg(4, str(1, 'scopes'), msg(2, str(1, 'a'), str(1, 'b'))))),
    );
    expect(decodeKubernetesProtobuf(bytes).object).toMatchObject({
      status: { authenticated: true, user: { username: 'jane', groups: ['dev'], extra: { scopes: ['a', 'b'] } } },
    });
  });
});

describe("kube-apiserver's 400 answers", () => {
  it('a body without the k8s\\0 prefix', () => {
    const err = decodeError(new TextEncoder().encode('{"kind":"ConfigMap"}'), CONFIGMAP);
    expect(err.code).toBe(400);
    expect(err.status.reason).toBe('BadRequest');
    expect(err.message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})',
    );
  });

  it('a long non-JSON body is summarised as 30 bytes of hex and " ..."', () => {
    const err = decodeError(new Uint8Array(40).fill(0xab), CONFIGMAP);
    expect(err.message).toBe(`the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${'ab'.repeat(30)} ...)`);
  });

  it('an empty body and a bare prefix', () => {
    expect(decodeError(new Uint8Array(0), CONFIGMAP).message).toBe('the object provided is unrecognized (must be of type ConfigMap): empty data (<empty>)');
    expect(decodeError(Uint8Array.from(MAGIC), CONFIGMAP).message).toBe('the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)');
  });

  it('a kind without a protobuf form (custom resources)', () => {
    const err = decodeError(envelope('stable.example.com/v1', 'CronTab', msg(1, str(1, 'x'))), { group: 'stable.example.com', version: 'v1', kind: 'CronTab' });
    expect(err.message).toBe(
      'CronTab in version "v1" cannot be handled as a CronTab: no kind "CronTab" is registered for version "stable.example.com/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it("gogo's wrong wire type error names the Go field", () => {
    const err = decodeError(envelope('v1', 'ConfigMap', int(1, 5)), CONFIGMAP);
    expect(err.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: wrong wireType = 0 for field ObjectMeta');
  });

  it('a truncated object is "unexpected EOF"; a truncated envelope is unrecognized', () => {
    const good = envelope('v1', 'ConfigMap', msg(1, str(1, 'x')));
    // Cut inside the raw bytes while keeping the envelope's own lengths consistent.
    const object = [...msg(1, str(1, 'x'))].slice(0, -1);
    const cut = Uint8Array.from([...MAGIC, ...msg(1, str(1, 'v1'), str(2, 'ConfigMap')), ...key(2, 2), ...varint(object.length), ...object]);
    expect(decodeError(cut, CONFIGMAP).message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF');
    expect(decodeError(good.slice(0, -1), CONFIGMAP).message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): unexpected EOF \(6b3873000a/);
  });

  it('end-group and zero field numbers', () => {
    expect(decodeError(envelope('v1', 'ConfigMap', [0x0c]), CONFIGMAP).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: wiretype end group for non-group',
    );
    expect(decodeError(envelope('v1', 'ConfigMap', [0x02, 0x00]), CONFIGMAP).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: proto: ConfigMap: illegal tag 0 (wire type 2)',
    );
  });

  it('an invalid Quantity fails like resource.ParseQuantity', () => {
    const bytes = envelope('v1', 'LimitRange', msg(2, msg(1, str(1, 'Container'), msg(2, str(1, 'cpu'), msg(2, str(1, 'lots'))))));
    expect(decodeError(bytes, { group: '', version: 'v1', kind: 'LimitRange' }).message).toBe(
      "LimitRange in version \"v1\" cannot be handled as a LimitRange: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  it('without an expected kind the bare error is reported', () => {
    expect(decodeError(new Uint8Array(0)).message).toBe('empty data');
  });
});
