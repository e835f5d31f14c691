import { describe, expect, it } from 'vitest';
import { decodeFieldsV1 } from './decode';
import { formatPath } from './field-path';
import { ownersOf, ownershipOf } from './ownership';
import type { KubeObject } from '../api/types';

// fieldsV1 as the server wrote it for a Deployment applied by "alice" (see the managed-fields view).
const ALICE = {
  'f:spec': {
    'f:template': {
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
      },
    },
    'f:replicas': {},
  },
};

describe('fieldsV1 decoding', () => {
  it('lists leaves and "." members, not the maps that only lead to them', () => {
    const paths = decodeFieldsV1(ALICE).map((p) => formatPath(p.elements));
    expect(paths).toEqual(['.spec.template.spec.containers[name="c"]', '.spec.template.spec.containers[name="c"].image', '.spec.template.spec.containers[name="c"].name', '.spec.replicas']);
  });

  it('gives each concrete path its owners, shared fields to several managers', () => {
    const object: KubeObject = {
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      metadata: {
        managedFields: [
          { manager: 'alice', operation: 'Apply', apiVersion: 'apps/v1', fieldsV1: ALICE },
          { manager: 'bob', operation: 'Update', apiVersion: 'apps/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
        ],
      },
    };
    const ownership = ownershipOf(object);
    expect(ownership.managers.map((m) => [m.manager, m.operation])).toEqual([
      ['alice', 'Apply'],
      ['bob', 'Update'],
    ]);
    expect(ownersOf(ownership, ['spec', 'replicas'])).toEqual([0, 1]);
    expect(ownersOf(ownership, ['spec', 'template', 'spec', 'containers', 0, 'image'])).toEqual([0]);
    expect(ownersOf(ownership, ['spec', 'template'])).toEqual([]);
  });
});
