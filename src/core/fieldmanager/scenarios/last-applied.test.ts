// `kubectl apply --server-side` (manager "kubectl") after client-side
// `kubectl apply` (manager "kubectl-client-side-apply", last-applied
// annotation): conflicts on fields the annotation still holds with the live
// value are forced; the annotation follows the server-side applied config.

import { describe, expect, it } from 'vitest';
import { LAST_APPLIED_ANNOTATION } from '../index';
import { scenario } from './dsl';
import { configSchema } from './schemas';

const lastApplied = (data: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', data, kind: 'Config', metadata: { annotations: {}, name: 'test' } }) + '\n';

function clientSideApplied() {
  const s = scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' });
  s.update('kubectl-client-side-apply', {
    metadata: { name: 'test', annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied({ a: '1', b: '2' }) } },
    data: { a: '1', b: '2' },
  });
  return s;
}

describe('client-side → server-side apply', () => {
  it('kubectl takes over the fields it applied client-side without a conflict', () => {
    const s = clientSideApplied().apply('kubectl', `data: {a: "1", b: "3"}`);
    s.expectField('data', `{a: "1", b: "3"}`);
    s.expectManagedFields(`
      - manager: kubectl
        operation: Apply
        fieldsV1: {"f:data": {"f:a": {}, "f:b": {}}}
      - manager: kubectl-client-side-apply
        operation: Update
        fieldsV1: {"f:data": {".": {}, "f:a": {}}, "f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}}}}
    `);
  });

  it('the last-applied annotation is rewritten to the server-side applied configuration', () => {
    const s = clientSideApplied().apply('kubectl', `data: {a: "1", b: "3"}`);
    expect((s.live!.metadata!.annotations as Record<string, string>)[LAST_APPLIED_ANNOTATION]).toBe(
      '{"apiVersion":"v1","data":{"a":"1","b":"3"},"kind":"Config","metadata":{"name":"test"}}\n',
    );
  });

  it('a field changed since the client-side apply still conflicts, with its new owner', () => {
    const s = clientSideApplied();
    s.update('kubectl-edit', { metadata: s.live!.metadata, data: { a: '1', b: '5' } });
    expect(s.conflict('kubectl', `data: {a: "1", b: "3"}`)).toBe('Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.b');
  });

  it('only the manager "kubectl" gets this treatment', () => {
    const s = clientSideApplied();
    expect(s.conflict('my-tool', `data: {a: "1", b: "3"}`)).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b');
  });

  it('without the annotation there is no migration and no annotation is added', () => {
    const s = scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' }).update('kubectl-client-side-apply', `data: {b: "2"}`);
    expect(s.conflict('kubectl', `data: {b: "3"}`)).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b');
    s.apply('kubectl', `data: {c: "1"}`);
    expect(s.live!.metadata!.annotations).toBeUndefined();
  });

  it('an annotation of another version does not allow anything', () => {
    const s = scenario({ schema: configSchema, apiVersion: 'v1', kind: 'Config' });
    s.update('kubectl-client-side-apply', {
      metadata: { name: 'test', annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify({ apiVersion: 'v2', kind: 'Config', data: { b: '2' } }) } },
      data: { b: '2' },
    });
    expect(s.conflict('kubectl', `data: {b: "3"}`)).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.b');
  });
});
