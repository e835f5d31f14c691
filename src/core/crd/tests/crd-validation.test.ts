// Bad CustomResourceDefinitions get apiextensions-apiserver's 422 and change
// nothing: no structural schema, a name that is not <plural>.<group>, two
// (or no) storage versions, bad names, scope, printer columns, scale paths,
// defaults, the API-approval annotation; fields that may not change; names
// another CRD already took (NamesAccepted False).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test-support/api-harness';
import { createEstablished, CRDS, cronTab, cronTabCrd, eventually } from './fixtures';

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

type Crd = { metadata: { name: string; annotations?: Record<string, string> }; spec: Record<string, any> };
const crd = (): Crd => cronTabCrd() as unknown as Crd;
const PREFIX = 'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: ';

async function refused(body: Crd): Promise<string> {
  const res = await t.post(CRDS, body);
  expect(res.status).toBe(422);
  expect(res.body.reason).toBe('Invalid');
  expect(res.body.details.group).toBe('apiextensions.k8s.io');
  expect(res.body.details.kind).toBe('CustomResourceDefinition');
  // Nothing was stored.
  expect((await t.get(CRDS)).body.items).toEqual([]);
  return res.body.message as string;
}

describe('bad CRDs are refused with kube messages', () => {
  it('a name that is not spec.names.plural + "." + spec.group', async () => {
    const body = crd();
    body.metadata.name = 'wrong.example.com';
    expect(await refused(body)).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "wrong.example.com" is invalid: metadata.name: Invalid value: "wrong.example.com": must be spec.names.plural+"."+spec.group',
    );
  });

  it('a version without a schema', async () => {
    const body = crd();
    delete body.spec.versions[0].schema;
    expect(await refused(body)).toBe(`${PREFIX}spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required`);
  });

  it('a schema that is not structural (paths under spec.validation: one schema for all versions is lifted there)', async () => {
    const body = crd();
    const props = body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    props.image = { description: 'no type' };
    props.ports = { type: 'array' };
    expect(await refused(body)).toBe(
      `${PREFIX}[spec.validation.openAPIV3Schema.properties[spec].properties[image].type: Required value: must not be empty for specified object fields, ` +
        'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items: Required value: must be specified]',
    );
  });

  it('a root that is not an object, value validations with types, and metadata beyond name', async () => {
    const body = crd();
    body.spec.versions[0].schema.openAPIV3Schema = {
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { labels: { type: 'object' } } },
        spec: { type: 'object', anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }] },
      },
    };
    delete body.spec.versions[0].subresources;
    expect(await refused(body)).toBe(
      `${PREFIX}[spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified, ` +
        'spec.validation.openAPIV3Schema.properties[spec].anyOf[0].properties[a].type: Forbidden: must be empty to be structural, ' +
        'spec.validation.openAPIV3Schema.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural]',
    );
  });

  it('a second version marked storage', async () => {
    const body = crd();
    body.spec.versions.push({ ...structuredClone(body.spec.versions[0]), name: 'v2' });
    const message = await refused(body);
    expect(message).toMatch(
      new RegExp(
        `^${PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\[spec\\.versions: Invalid value: \\[\\]apiextensions\\.CustomResourceDefinitionVersion\\{apiextensions\\.CustomResourceDefinitionVersion\\{Name:"v1", Served:true, Storage:true, .*\\}: must have exactly one version marked as storage version, status\\.storedVersions: Invalid value: \\[\\]string\\{"v1"\\}: must have the storage version v2\\]$`,
      ),
    );
  });

  it('no storage version at all', async () => {
    const body = crd();
    body.spec.versions[0].storage = false;
    const message = await refused(body);
    expect(message).toContain('must have exactly one version marked as storage version');
    expect(message).toContain('status.storedVersions: Invalid value: []string(nil): must have at least one stored version');
  });

  it('names, group and scope', async () => {
    const body = crd();
    body.spec.scope = 'Global';
    body.spec.names.shortNames = ['C T'];
    body.spec.names.kind = 'Cron_Tab';
    expect(await refused(body)).toBe(
      `${PREFIX}[spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced", ` +
        "spec.names.kind: Invalid value: \"Cron_Tab\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), " +
        "spec.names.listKind: Invalid value: \"Cron_TabList\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), " +
        "spec.names.shortNames[0]: Invalid value: \"C T\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')]",
    );
    const group = crd();
    group.spec.group = 'example';
    group.metadata.name = 'crontabs.example';
    const res = await t.post(CRDS, group);
    expect(res.body.message).toBe('CustomResourceDefinition.apiextensions.k8s.io "crontabs.example" is invalid: spec.group: Invalid value: "example": should be a domain with at least one dot');
  });

  it('printer columns and scale paths', async () => {
    const body = crd();
    body.spec.versions[0].additionalPrinterColumns = [{ name: 'X', type: 'text', jsonPath: 'spec.x' }, { type: 'string', jsonPath: '.spec.y', format: 'weird' }];
    body.spec.versions[0].subresources.scale = { specReplicasPath: '.status.r', statusReplicasPath: 'x' };
    expect(await refused(body)).toBe(
      `${PREFIX}[spec.subresources.scale.specReplicasPath: Invalid value: ".status.r": should be a json path under .spec, ` +
        'spec.subresources.scale.statusReplicasPath: Invalid value: "x": must be a simple json path starting with ., ' +
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string, ' +
        'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with ., ' +
        'spec.additionalPrinterColumns[1].name: Required value, ' +
        'spec.additionalPrinterColumns[1].format: Invalid value: "weird": must be one of byte,date,date-time,double,float,int32,int64,password]',
    );
  });

  it('list and map markers in the wrong places', async () => {
    const body = crd();
    const props = body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    props.ports = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { name: { type: 'string' } } } };
    props.labels = { type: 'string', 'x-kubernetes-map-type': 'granular' };
    expect(await refused(body)).toBe(
      `${PREFIX}[spec.validation.openAPIV3Schema.properties[spec].properties[labels].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified, ` +
        'spec.validation.openAPIV3Schema.properties[spec].properties[ports].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map]',
    );
  });

  it('a default that does not match its schema', async () => {
    const body = crd();
    body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.default = 'many';
    expect(await refused(body)).toBe(
      `${PREFIX}spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    );
  });

  it('a protected group without the API approval annotation', async () => {
    const body = crd();
    body.spec.group = 'stable.k8s.io';
    body.metadata.name = 'crontabs.stable.k8s.io';
    const res = await t.post(CRDS, body);
    expect(res.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.k8s.io" is invalid: metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    );
    body.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, experimental' };
    expect((await t.post(CRDS, body)).status).toBe(201);
  });
});

describe('updates', () => {
  it('the group and plural never change; scope and kind not once Established (the name rule is a create-time check)', async () => {
    await createEstablished(t, cronTabCrd(), '/apis/stable.example.com/v1/crontabs');
    const cur = (await t.get(`${CRDS}/crontabs.stable.example.com`)).body;
    const next = structuredClone(cur);
    next.spec.scope = 'Cluster';
    next.spec.names.kind = 'CronTable';
    next.spec.names.listKind = 'CronTableList';
    next.spec.group = 'other.example.com';
    const res = await t.put(`${CRDS}/crontabs.stable.example.com`, next);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: [' +
        'spec.scope: Invalid value: "Cluster": field is immutable, spec.names.kind: Invalid value: "CronTable": field is immutable, spec.group: Invalid value: "other.example.com": field is immutable]',
    );
  });

  it('a spec change bumps generation; a status change through the main resource is ignored', async () => {
    await createEstablished(t, cronTabCrd(), '/apis/stable.example.com/v1/crontabs');
    const cur = (await t.get(`${CRDS}/crontabs.stable.example.com`)).body;
    const res = await t.patch(`${CRDS}/crontabs.stable.example.com`, { spec: { names: { shortNames: ['ct', 'cts'] } }, status: { storedVersions: ['v0'] } }, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(res.body.metadata.generation).toBe(2);
    expect(res.body.status.storedVersions).toEqual(cur.status.storedVersions);
    // The naming controller accepts the new short name.
    await eventually(async () => {
      expect((await t.get(`${CRDS}/crontabs.stable.example.com`)).body.status.acceptedNames.shortNames).toEqual(['ct', 'cts']);
    });
  });
});

describe('names another CRD of the group has taken', () => {
  it('are not accepted: NamesAccepted False with the conflict, not Established, not served', async () => {
    await createEstablished(t, cronTabCrd(), '/apis/stable.example.com/v1/crontabs');
    const other = crd();
    other.metadata.name = 'cronjobs.stable.example.com';
    other.spec.names = { plural: 'cronjobs', singular: 'cronjob', kind: 'CronTab', shortNames: ['ct'] };
    expect((await t.post(CRDS, other)).status).toBe(201);
    const status = await eventually(async () => {
      const got = (await t.get(`${CRDS}/cronjobs.stable.example.com`)).body.status;
      expect(got.conditions).toBeDefined();
      return got;
    });
    const names = status.conditions.find((c: { type: string }) => c.type === 'NamesAccepted');
    // Each conflict overwrites the previous one (short names, kind, then list kind), as in kube's naming controller.
    expect(names).toMatchObject({ status: 'False', reason: 'ListKindConflict', message: '"CronTabList" is already in use' });
    const established = status.conditions.find((c: { type: string }) => c.type === 'Established');
    expect(established).toMatchObject({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    expect(status.acceptedNames).toEqual({ plural: 'cronjobs', singular: 'cronjob', kind: '' });
    expect((await t.get('/apis/stable.example.com/v1/cronjobs')).status).toBe(404);
    // The first CRD keeps serving.
    expect((await t.post('/apis/stable.example.com/v1/namespaces/default/crontabs', cronTab('x'))).status).toBe(201);
  });
});
