import { describe, expect, it } from 'vitest';
import { aggregateFieldErrors, fieldErrorString } from '../errors/field-errors';
import { getBuiltinSchemaTable } from './builtin-table';
import { builtinBodyProblems, decodeError } from './field-validation';
import { fromJSONSchemaProps } from './crd-schema';
import { builtinTypeError, formatGoFloat, validateCustomResource } from './typecheck';

const table = getBuiltinSchemaTable();
const pod = { ref: 'io.k8s.api.core.v1.Pod' };
const typeError = (body: unknown) => builtinBodyProblems(JSON.stringify(body), pod, table).error;

describe('built-in decode errors (Go encoding/json UnmarshalTypeError texts)', () => {
  it('a string where a list is expected', () => {
    expect(typeError({ spec: { containers: 'nginx' } })).toBe(
      'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
  });

  it('the field path has no list indices and names the innermost struct', () => {
    expect(typeError({ spec: { containers: [{ name: 'c', ports: [{ containerPort: 'http' }] }] } })).toBe(
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
  });

  it('numbers that are not integers, objects and booleans', () => {
    expect(typeError({ spec: { terminationGracePeriodSeconds: 1.5 } })).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
    expect(typeError({ spec: 1 })).toBe('json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec');
    expect(typeError({ metadata: { labels: { a: true } } })).toBe(
      'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string',
    );
  });

  it('inline embedded structs appear in the field path (Volume.VolumeSource)', () => {
    expect(typeError({ spec: { volumes: [{ name: 'v', hostPath: 'x' }] } })).toBe(
      'json: cannot unmarshal string into Go struct field Volume.spec.volumes.VolumeSource.hostPath of type v1.HostPathVolumeSource',
    );
  });

  it('a field holding an inline copy (claimRef) still decodes into the named Go type', () => {
    const pv = { ref: 'io.k8s.api.core.v1.PersistentVolume' };
    expect(builtinBodyProblems(JSON.stringify({ spec: { claimRef: 'x' } }), pv, table).error).toBe(
      'json: cannot unmarshal string into Go struct field PersistentVolumeSpec.spec.claimRef of type v1.ObjectReference',
    );
    expect(builtinBodyProblems(JSON.stringify({ spec: { claimRef: { name: 1 } } }), pv, table).error).toBe(
      'json: cannot unmarshal number into Go struct field ObjectReference.spec.claimRef.name of type string',
    );
  });

  it('custom unmarshalers: IntOrString, Quantity, Time', () => {
    const svc = { ref: 'io.k8s.api.core.v1.Service' };
    expect(builtinBodyProblems(JSON.stringify({ spec: { ports: [{ port: 80, targetPort: true }] } }), svc, table).error).toBe(
      'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
    expect(typeError({ spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'lots' } } }] } })).toBe(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
    expect(typeError({ spec: { containers: [{ name: 'c', resources: { limits: { cpu: 0.5, memory: '1Gi' } } }] } })).toBeUndefined();
    expect(typeError({ metadata: { creationTimestamp: 'yesterday' } })).toBe(
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
    expect(typeError({ metadata: { creationTimestamp: 5 } })).toBe(
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
    );
  });

  it('the first type error wins; null is never an error', () => {
    expect(typeError({ spec: { hostname: 1, subdomain: 2 } })).toBe(
      'json: cannot unmarshal number into Go struct field PodSpec.spec.hostname of type string',
    );
    expect(typeError({ spec: { hostname: null, containers: null } })).toBeUndefined();
  });

  it('the 400 message wraps it as transformDecodeError does', () => {
    const err = decodeError({ kind: 'Pod', version: 'v1', intoKind: 'Pod' }, typeError({ spec: { containers: 'x' } })!);
    expect(err.status.code).toBe(400);
    expect(err.status.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container',
    );
  });

  it('works from a parsed value too (e.g. after a patch)', () => {
    expect(builtinTypeError({ spec: { replicas: 'x' } }, { ref: 'io.k8s.api.apps.v1.Deployment' }, table)).toBe(
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });
});

const crd = fromJSONSchemaProps({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        replicas: { type: 'integer', minimum: 1, maximum: 10 },
        size: { type: 'string', enum: ['small', 'large'] },
        name: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 5 },
        ratio: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 3 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port'],
          items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } },
        },
        port: { 'x-kubernetes-int-or-string': true },
        when: { type: 'string', format: 'date-time' },
        opt: { type: 'string', nullable: true },
      },
    },
  },
});

const messages = (obj: unknown) => validateCustomResource(obj, crd).map(fieldErrorString);

describe('CRD schema validation (kube-openapi errors as apiextensions converts them)', () => {
  it('type errors print the JSON type found', () => {
    expect(messages({ spec: { size: 'small', replicas: 'three' } })).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    expect(messages({ spec: { size: 'small', ratio: 1 } })).toEqual([]);
    expect(messages({ spec: { size: 'small', replicas: 1.5 } })).toEqual([
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    ]);
    expect(messages({ spec: { size: 'small', port: true } })).toEqual([
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
    expect(messages({ spec: { size: 'small', opt: null, name: null } })).toEqual([
      'spec.name: Invalid value: "null": spec.name in body must be of type string: "null"',
    ]);
  });

  it('required, enum, bounds, lengths and pattern', () => {
    expect(messages({ spec: {} })).toEqual(['spec.size: Required value']);
    expect(messages({ spec: { size: 'medium' } })).toEqual(['spec.size: Unsupported value: "medium": supported values: "small", "large"']);
    expect(messages({ spec: { size: 'small', replicas: 11 } })).toEqual([
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    ]);
    expect(messages({ spec: { size: 'small', replicas: 0 } })).toEqual([
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    ]);
    expect(messages({ spec: { size: 'small', name: 'A' } })).toEqual([
      'spec.name: Invalid value: "A": spec.name in body should be at least 2 chars long',
      "spec.name: Invalid value: \"A\": spec.name in body should match '^[a-z]+$'",
    ]);
    expect(messages({ spec: { size: 'small', name: 'abcdefg' } })).toEqual(['spec.name: Too long: may not be longer than 5']);
    expect(messages({ spec: { size: 'small', when: 'today' } })).toEqual([
      'spec.when: Invalid value: "today": spec.when in body must be of type date-time: "today"',
    ]);
  });

  it('maxItems and list-type set / map uniqueness', () => {
    expect(messages({ spec: { size: 'small', tags: ['a', 'b', 'a', 'a'] } })).toEqual([
      'spec.tags: Too many: 4: must have at most 3 items',
      'spec.tags[2]: Duplicate value: "a"',
    ]);
    expect(messages({ spec: { size: 'small', ports: [{ port: 80 }, { port: 443 }, { port: 80, name: 'x' }] } })).toEqual([
      'spec.ports[2]: Duplicate value: map[string]interface {}{"port":80}',
    ]);
  });

  it('aggregates like a 422 message', () => {
    const errs = validateCustomResource({ spec: { replicas: 'x' } }, crd);
    expect(aggregateFieldErrors(errs)).toBe(
      '[spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string", spec.size: Required value]',
    );
  });

  it('formats floats like Go %v', () => {
    expect(formatGoFloat(1.5)).toBe('1.5');
    expect(formatGoFloat(1000000)).toBe('1e+06');
    expect(formatGoFloat(123456)).toBe('123456');
    expect(formatGoFloat(0.00001)).toBe('1e-05');
  });
});
