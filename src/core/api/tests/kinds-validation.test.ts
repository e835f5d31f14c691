// Validation failures learners commonly meet, as a client sees them from a
// 1.32 server: 422, reason Invalid, the aggregated message and one cause per
// field error (pkg/apis/*/validation texts). Each case names its rule.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';

let t: TestServer;
beforeAll(async () => {
  // RBAC flags: requests carry the harness's administrator (RBAC writes need a user).
  t = await startTestServer({ 'authorization-mode': 'RBAC' });
});
afterAll(async () => {
  await t.close();
});

interface Cause {
  reason: string;
  message: string;
  field: string;
}

/** POSTs and expects kube's Invalid Status (details name the Kind, not the resource) with exactly these causes. */
async function expectInvalid(path: string, body: Record<string, unknown>, kind: { group?: string; kind: string }, message: string, causes: Cause[]) {
  const res = await t.post(path, body);
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Invalid', code: 422 });
  expect(res.body.message).toBe(message);
  const name = (body.metadata as { name: string }).name;
  expect(res.body.details).toEqual({ name, ...(kind.group ? { group: kind.group } : {}), kind: kind.kind, causes });
}

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const container = { name: 'app', image: 'nginx' };

describe('deployments (apps/validation ValidateDeploymentSpec)', () => {
  const DEP = '/apis/apps/v1/namespaces/default/deployments';
  const dep = (spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec });
  const template = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [container] } });
  const apps = { group: 'apps', kind: 'Deployment' };

  it('selector not matching the template labels', async () => {
    const detail = 'Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`';
    await expectInvalid(DEP, dep({ selector: { matchLabels: { app: 'web' } }, template: template({ app: 'other' }) }), apps, `Deployment.apps "web" is invalid: spec.template.metadata.labels: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.template.metadata.labels' },
    ]);
  });

  it('missing selector: Required, and the nil selector matches no labels', async () => {
    const detail = 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`';
    await expectInvalid(DEP, dep({ template: template({ app: 'web' }) }), apps, `Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: ${detail}]`, [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.template.metadata.labels' },
    ]);
  });

  it('negative replicas', async () => {
    const detail = 'Invalid value: -1: must be greater than or equal to 0';
    await expectInvalid(DEP, dep({ replicas: -1, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) }), apps, `Deployment.apps "web" is invalid: spec.replicas: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.replicas' },
    ]);
  });
});

describe('services (ValidateService)', () => {
  const SVC = '/api/v1/namespaces/default/services';
  const svc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
  const kind = { kind: 'Service' };

  it('port out of range (targetPort defaults to it and fails too)', async () => {
    const detail = 'Invalid value: 70000: must be between 1 and 65535, inclusive';
    await expectInvalid(SVC, svc('s1', { ports: [{ port: 70000 }] }), kind, `Service "s1" is invalid: [spec.ports[0].port: ${detail}, spec.ports[0].targetPort: ${detail}]`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.ports[0].port' },
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.ports[0].targetPort' },
    ]);
  });

  it('duplicate port/protocol: the core.ServicePort key printed with %#v', async () => {
    const detail = 'Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}';
    await expectInvalid(SVC, svc('s1', { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }), kind, `Service "s1" is invalid: spec.ports[1]: ${detail}`, [
      { reason: 'FieldValueDuplicate', message: detail, field: 'spec.ports[1]' },
    ]);
  });

  it('several ports need names', async () => {
    await expectInvalid(SVC, svc('s1', { ports: [{ port: 80 }, { port: 81 }] }), kind, 'Service "s1" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]', [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[0].name' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[1].name' },
    ]);
  });

  it('nodePort outside the range (the allocator)', async () => {
    const detail = 'Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767';
    await expectInvalid(SVC, svc('s1', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] }), kind, `Service "s1" is invalid: spec.ports[0].nodePort: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.ports[0].nodePort' },
    ]);
  });

  it('clusterIP may not change: a changed clusterIP alone becomes clusterIPs (normalizeClusterIPs)', async () => {
    const created = await t.post(SVC, svc('fixed', { ports: [{ port: 80 }] }));
    expect(created.status).toBe(201);
    const changed = { ...created.body, spec: { ...created.body.spec, clusterIP: '10.96.0.222' } };
    const res = await t.put(`${SVC}/fixed`, changed);
    expect(res.status).toBe(422);
    const detail = 'Invalid value: []string{"10.96.0.222"}: may not change once set';
    expect(res.body.message).toBe(`Service "fixed" is invalid: spec.clusterIPs[0]: ${detail}`);
    expect(res.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: detail, field: 'spec.clusterIPs[0]' }]);
  });
});

describe('pods (ValidatePodSpec, ValidatePodUpdate)', () => {
  const PODS = '/api/v1/namespaces/default/pods';
  const pod = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
  const kind = { kind: 'Pod' };

  it('container name not a DNS-1123 label', async () => {
    const detail = `Invalid value: "My_App": ${LABEL_MSG}`;
    await expectInvalid(PODS, pod('p', { containers: [{ name: 'My_App', image: 'nginx' }] }), kind, `Pod "p" is invalid: spec.containers[0].name: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.containers[0].name' },
    ]);
  });

  it('duplicate container name, missing image', async () => {
    await expectInvalid(PODS, pod('p', { containers: [container, container] }), kind, 'Pod "p" is invalid: spec.containers[1].name: Duplicate value: "app"', [
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.containers[1].name' },
    ]);
    await expectInvalid(PODS, pod('p', { containers: [{ name: 'app' }] }), kind, 'Pod "p" is invalid: spec.containers[0].image: Required value', [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
    ]);
  });

  it('an image with surrounding whitespace (a pod-only check: templates may carry " ")', async () => {
    const detail = 'Invalid value: " nginx": must not have leading or trailing whitespace';
    await expectInvalid(PODS, pod('p', { containers: [{ name: 'app', image: ' nginx' }] }), kind, `Pod "p" is invalid: spec.containers[0].image: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.containers[0].image' },
    ]);
  });

  it('requests above limits', async () => {
    const resources = { requests: { cpu: '2' }, limits: { cpu: '1' } };
    const detail = 'Invalid value: "2": must be less than or equal to cpu limit of 1';
    await expectInvalid(PODS, pod('p', { containers: [{ ...container, resources }] }), kind, `Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.containers[0].resources.requests[cpu]' },
    ]);
  });

  it('unknown restartPolicy', async () => {
    const detail = 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"';
    await expectInvalid(PODS, pod('p', { restartPolicy: 'Sometimes', containers: [container] }), kind, `Pod "p" is invalid: spec.restartPolicy: ${detail}`, [
      { reason: 'FieldValueNotSupported', message: detail, field: 'spec.restartPolicy' },
    ]);
  });

  it('spec updates beyond the mutable fields are Forbidden with the list of what may change', async () => {
    const created = await t.post(PODS, pod('fixed', { containers: [container] }));
    expect(created.status).toBe(201);
    const current = (await t.get(`${PODS}/fixed`)).body;
    current.spec.containers[0].ports = [{ containerPort: 80 }];
    const res = await t.put(`${PODS}/fixed`, current);
    expect(res.status).toBe(422);
    const head =
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';
    expect(res.body.message.startsWith(`Pod "fixed" is invalid: spec: ${head}`)).toBe(true);
    expect(res.body.details.causes).toHaveLength(1);
    expect(res.body.details.causes[0].field).toBe('spec');
    expect(res.body.details.causes[0].reason).toBe('FieldValueForbidden');
    // The diff after the list is go-cmp's, which is deliberately unstable upstream; only its start is fixed.
    expect(res.body.details.causes[0].message.startsWith(`${head}  core.PodSpec{`)).toBe(true);
  });
});

describe('jobs and cronjobs (batch/validation)', () => {
  const JOBS = '/apis/batch/v1/namespaces/default/jobs';
  const CRONJOBS = '/apis/batch/v1/namespaces/default/cronjobs';
  const template = (restartPolicy?: string) => ({ spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'a', image: 'busybox' }] } });
  const batch = (kind: string) => ({ group: 'batch', kind });

  it('a job template without restartPolicy (defaulted to Always) is a Required value', async () => {
    const detail = 'Required value: valid values: "OnFailure", "Never"';
    await expectInvalid(JOBS, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: template() } }, batch('Job'), `Job.batch "j" is invalid: spec.template.spec.restartPolicy: ${detail}`, [
      { reason: 'FieldValueRequired', message: detail, field: 'spec.template.spec.restartPolicy' },
    ]);
  });

  it('a cronjob schedule robfig/cron cannot parse', async () => {
    const cron = (schedule: string) => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule, jobTemplate: { spec: { template: template('Never') } } } });
    for (const [schedule, why] of [
      ['bad', 'expected exactly 5 fields, found 1: [bad]'],
      ['61 * * * *', 'end of range (61) above maximum (59): 61'],
      ['TZ=UTC 0 * * * *', 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
    ]) {
      const detail = `Invalid value: ${JSON.stringify(schedule)}: ${why}`;
      await expectInvalid(CRONJOBS, cron(schedule!), batch('CronJob'), `CronJob.batch "c" is invalid: spec.schedule: ${detail}`, [
        { reason: 'FieldValueInvalid', message: detail, field: 'spec.schedule' },
      ]);
    }
  });
});

describe('configmaps and secrets (ValidateConfigMap, ValidateSecret)', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  const KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

  it('a key with a space', async () => {
    const detail = `Invalid value: "a b": ${KEY_MSG}`;
    await expectInvalid(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'a b': 'x' } }, { kind: 'ConfigMap' }, `ConfigMap "c" is invalid: data[a b]: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'data[a b]' },
    ]);
  });

  it('more than 1 MiB of data: TooLong on the whole object (an empty path)', async () => {
    const detail = 'Too long: may not be more than 1048576 bytes';
    await expectInvalid(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'x'.repeat(1048577) } }, { kind: 'ConfigMap' }, `ConfigMap "c" is invalid: : ${detail}`, [
      { reason: 'FieldValueTooLong', message: detail, field: '' },
    ]);
  });

  it('a secret key with a slash', async () => {
    const detail = `Invalid value: "a/b": ${KEY_MSG}`;
    await expectInvalid('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { 'a/b': 'x' } }, { kind: 'Secret' }, `Secret "s" is invalid: data[a/b]: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'data[a/b]' },
    ]);
  });
});

describe('ingresses (ValidateIngressSpec)', () => {
  const ING = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
  const ing = (spec: Record<string, unknown>) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i' }, spec });
  const kind = { group: 'networking.k8s.io', kind: 'Ingress' };
  const backend = { service: { name: 'web', port: { number: 80 } } };
  const rule = (host: string | undefined, path: Record<string, unknown>) => ({ ...(host ? { host } : {}), http: { paths: [path] } });

  it('a path without pathType stops there', async () => {
    await expectInvalid(ING, ing({ rules: [rule('a.example.com', { path: '/', backend: {} })] }), kind, 'Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified', [
      { reason: 'FieldValueRequired', message: 'Required value: pathType must be specified', field: 'spec.rules[0].http.paths[0].pathType' },
    ]);
  });

  it('an IP address as host', async () => {
    const detail = 'Invalid value: "1.2.3.4": must be a DNS name, not an IP address';
    await expectInvalid(ING, ing({ rules: [rule('1.2.3.4', { path: '/', pathType: 'Prefix', backend })] }), kind, `Ingress.networking.k8s.io "i" is invalid: spec.rules[0].host: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.rules[0].host' },
    ]);
  });

  it('a wildcard host is checked as a wildcard DNS-1123 subdomain', async () => {
    const detail =
      "Invalid value: \"*.*.example.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    await expectInvalid(ING, ing({ rules: [rule('*.*.example.com', { path: '/', pathType: 'Prefix', backend })] }), kind, `Ingress.networking.k8s.io "i" is invalid: spec.rules[0].host: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'spec.rules[0].host' },
    ]);
  });

  it('a backend service without port, an empty backend', async () => {
    await expectInvalid(ING, ing({ rules: [rule(undefined, { path: '/', pathType: 'Prefix', backend: { service: { name: 'web' } } })] }), kind, 'Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].backend: Required value: port name or number is required', [
      { reason: 'FieldValueRequired', message: 'Required value: port name or number is required', field: 'spec.rules[0].http.paths[0].backend' },
    ]);
    await expectInvalid(ING, ing({ rules: [rule(undefined, { path: '/', pathType: 'Prefix', backend: {} })] }), kind, 'Ingress.networking.k8s.io "i" is invalid: spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required', [
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": resource or service backend is required', field: 'spec.rules[0].http.paths[0].backend' },
    ]);
  });

  it('neither rules nor defaultBackend: the nil rules printed with %#v', async () => {
    const detail = 'Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified';
    await expectInvalid(ING, ing({}), kind, `Ingress.networking.k8s.io "i" is invalid: spec.rules: ${detail}`, [{ reason: 'FieldValueInvalid', message: detail, field: 'spec.rules' }]);
  });
});

describe('rbac and namespaces', () => {
  it('a Role with verbs the server does not know is accepted (ValidatePolicyRule checks only presence)', async () => {
    const res = await t.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'flyers' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['fly'] }],
    });
    expect(res.status).toBe(201);
    expect(res.body.rules[0].verbs).toEqual(['fly']);
  });

  it('a Role rule without verbs', async () => {
    await expectInvalid(
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'] }] },
      { group: 'rbac.authorization.k8s.io', kind: 'Role' },
      'Role.rbac.authorization.k8s.io "r" is invalid: rules[0].verbs: Required value: verbs must contain at least one value',
      [{ reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value', field: 'rules[0].verbs' }],
    );
  });

  it('a namespace name that is not a DNS-1123 label', async () => {
    const detail = `Invalid value: "My_NS": ${LABEL_MSG}`;
    await expectInvalid('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'My_NS' } }, { kind: 'Namespace' }, `Namespace "My_NS" is invalid: metadata.name: ${detail}`, [
      { reason: 'FieldValueInvalid', message: detail, field: 'metadata.name' },
    ]);
  });
});
