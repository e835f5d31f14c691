// Rules of kube-apiserver's RequestInfoFactory (spec 001, "Decision rules" 3-5).
import { describe, expect, it } from 'vitest';
import { requestInfoFor } from './request-info';

describe('requestInfoFor', () => {
  it('non-resource paths use the lower-case HTTP verb (GET /healthz is get)', () => {
    const i = requestInfoFor('GET', '/healthz');
    expect(i).toMatchObject({ isResourceRequest: false, verb: 'get', path: '/healthz', resource: '' });
    expect(requestInfoFor('POST', '/api').verb).toBe('post');
    expect(requestInfoFor('GET', '/apis/apps').isResourceRequest).toBe(false);
    expect(requestInfoFor('GET', '/apis/apps/v1').isResourceRequest).toBe(false);
    expect(requestInfoFor('GET', '/api/v1').isResourceRequest).toBe(false);
    expect(requestInfoFor('GET', '/version').verb).toBe('get');
  });

  it('GET of a collection is list, with watch=1 / watch=true it is watch', () => {
    expect(requestInfoFor('GET', '/api/v1/namespaces/default/pods')).toMatchObject({
      isResourceRequest: true,
      verb: 'list',
      apiPrefix: 'api',
      apiGroup: '',
      apiVersion: 'v1',
      namespace: 'default',
      resource: 'pods',
      name: '',
      parts: ['pods'],
    });
    expect(requestInfoFor('GET', '/api/v1/pods', 'watch=1').verb).toBe('watch');
    expect(requestInfoFor('GET', '/api/v1/pods', 'watch=true').verb).toBe('watch');
    expect(requestInfoFor('GET', '/api/v1/pods', 'watch=false').verb).toBe('list');
    expect(requestInfoFor('GET', '/api/v1/pods', 'watch=0').verb).toBe('list');
    // An unparsable value counts as a watch (kube's fallback).
    expect(requestInfoFor('GET', '/api/v1/pods', 'watch=yes').verb).toBe('watch');
    expect(requestInfoFor('HEAD', '/api/v1/pods').verb).toBe('list');
  });

  it('maps every HTTP method to its API verb', () => {
    expect(requestInfoFor('GET', '/api/v1/namespaces/ns/pods/p').verb).toBe('get');
    expect(requestInfoFor('POST', '/api/v1/namespaces/ns/pods').verb).toBe('create');
    expect(requestInfoFor('PUT', '/api/v1/namespaces/ns/pods/p').verb).toBe('update');
    expect(requestInfoFor('PATCH', '/api/v1/namespaces/ns/pods/p').verb).toBe('patch');
    expect(requestInfoFor('DELETE', '/api/v1/namespaces/ns/pods/p').verb).toBe('delete');
    expect(requestInfoFor('DELETE', '/api/v1/namespaces/ns/pods').verb).toBe('deletecollection');
    expect(requestInfoFor('OPTIONS', '/api/v1/namespaces/ns/pods').verb).toBe('');
  });

  it('parses groups, names and subresources', () => {
    expect(requestInfoFor('PUT', '/apis/apps/v1/namespaces/ns/deployments/d/scale')).toMatchObject({
      apiPrefix: 'apis',
      apiGroup: 'apps',
      apiVersion: 'v1',
      namespace: 'ns',
      resource: 'deployments',
      name: 'd',
      subresource: 'scale',
      verb: 'update',
    });
    expect(requestInfoFor('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin')).toMatchObject({
      namespace: '',
      resource: 'clusterroles',
      name: 'admin',
      verb: 'get',
    });
  });

  it('namespaces/<ns> is the namespace resource itself, with status and finalize as its subresources', () => {
    expect(requestInfoFor('GET', '/api/v1/namespaces/foo')).toMatchObject({ resource: 'namespaces', name: 'foo', namespace: 'foo', verb: 'get' });
    expect(requestInfoFor('PUT', '/api/v1/namespaces/foo/status')).toMatchObject({
      resource: 'namespaces',
      name: 'foo',
      subresource: 'status',
      namespace: 'foo',
    });
    expect(requestInfoFor('PUT', '/api/v1/namespaces/foo/finalize')).toMatchObject({ resource: 'namespaces', subresource: 'finalize' });
    expect(requestInfoFor('GET', '/api/v1/namespaces')).toMatchObject({ resource: 'namespaces', verb: 'list', namespace: '' });
  });

  it('handles the legacy /watch/ and /proxy/ path verbs', () => {
    expect(requestInfoFor('GET', '/api/v1/watch/namespaces/default/pods')).toMatchObject({
      verb: 'watch',
      namespace: 'default',
      resource: 'pods',
      name: '',
    });
    expect(requestInfoFor('GET', '/api/v1/watch/pods')).toMatchObject({ verb: 'watch', resource: 'pods' });
    expect(requestInfoFor('GET', '/api/v1/watch/namespaces/default/pods/p1')).toMatchObject({ verb: 'watch', name: 'p1' });
    // proxy keeps the rest of the path out of the subresource.
    expect(requestInfoFor('GET', '/api/v1/proxy/namespaces/ns/pods/p/extra/path')).toMatchObject({
      verb: 'proxy',
      resource: 'pods',
      name: 'p',
      subresource: '',
    });
    // The pods/proxy subresource of today is an ordinary subresource.
    expect(requestInfoFor('GET', '/api/v1/namespaces/ns/pods/p/proxy/x')).toMatchObject({ verb: 'get', subresource: 'proxy' });
  });

  it('a list pinned to metadata.name by a field selector is authorized with that name', () => {
    expect(requestInfoFor('GET', '/api/v1/namespaces/ns/pods', 'fieldSelector=metadata.name%3Dmypod')).toMatchObject({
      verb: 'list',
      name: 'mypod',
    });
    expect(requestInfoFor('GET', '/api/v1/namespaces/ns/pods', 'fieldSelector=metadata.name%3D%3Dmypod&watch=1')).toMatchObject({
      verb: 'watch',
      name: 'mypod',
    });
    expect(requestInfoFor('GET', '/api/v1/namespaces/ns/pods', 'fieldSelector=metadata.name!%3Dmypod').name).toBe('');
  });

  it('passes parsed field and label selector requirements for collection verbs (AuthorizeWithSelectors)', () => {
    const i = requestInfoFor('GET', '/api/v1/pods', 'fieldSelector=spec.nodeName%3Dn1&labelSelector=app%3Dweb,tier+notin+(db)');
    expect(i.fieldSelectorRequirements).toEqual([{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }]);
    expect(i.labelSelectorRequirements).toEqual([
      { key: 'app', operator: 'In', values: ['web'] },
      { key: 'tier', operator: 'NotIn', values: ['db'] },
    ]);
    // Not for the legacy watch path, and not for a get.
    expect(requestInfoFor('GET', '/api/v1/watch/pods', 'labelSelector=a%3Db').labelSelectorRequirements).toBeUndefined();
    expect(requestInfoFor('GET', '/api/v1/namespaces/n/pods/p', 'labelSelector=a%3Db').labelSelectorRequirements).toBeUndefined();
  });
});
