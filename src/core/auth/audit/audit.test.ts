// Decision traces and audit (issue "Access control": audit.k8s.io/v1 Event
// shape, authorization.k8s.io/decision and /reason annotations, k8s.io/deprecated,
// bounded log, no token in any record).
import { describe, expect, it } from 'vitest';
import { buildAuditEvent } from './event';
import { RingBuffer } from './ring-buffer';
import { requestInfoFor } from '../request-info';

describe('audit events', () => {
  const base = {
    auditID: 'a1b2',
    level: 'Metadata' as const,
    stage: 'ResponseComplete' as const,
    receivedAt: Date.UTC(2024, 0, 1, 0, 0, 0, 123),
    stageAt: Date.UTC(2024, 0, 1, 0, 0, 1, 0),
  };

  it('records a forbidden request with the decision annotations', () => {
    const e = buildAuditEvent({
      ...base,
      requestURI: '/api/v1/namespaces/default/pods?limit=500',
      requestInfo: requestInfoFor('GET', '/api/v1/namespaces/default/pods', 'limit=500'),
      user: { username: 'alice', groups: ['system:authenticated'] },
      userAgent: 'kubectl/v1.32.0',
      sourceIPs: ['127.0.0.1'],
      decision: { decision: 'NoOpinion', reason: '', trace: [] },
      responseStatus: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods is forbidden: …', reason: 'Forbidden', details: { kind: 'pods' }, code: 403 },
    });
    expect(e).toEqual({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: 'a1b2',
      stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/default/pods?limit=500',
      verb: 'list',
      user: { username: 'alice', groups: ['system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'kubectl/v1.32.0',
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
      responseStatus: { metadata: {}, status: 'Failure', message: 'pods is forbidden: …', reason: 'Forbidden', details: { kind: 'pods' }, code: 403 },
      requestReceivedTimestamp: '2024-01-01T00:00:00.123000Z',
      stageTimestamp: '2024-01-01T00:00:01.000000Z',
      annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' },
    });
  });

  it('allowed requests, non-resource requests, impersonation and deprecation', () => {
    const e = buildAuditEvent({
      ...base,
      requestURI: '/healthz',
      requestInfo: requestInfoFor('GET', '/healthz'),
      user: { username: 'admin', groups: ['system:masters'] },
      impersonatedUser: { username: 'jane', groups: ['system:authenticated'] },
      decision: { decision: 'Allow', reason: 'RBAC: allowed by x', trace: [] },
      responseStatus: { code: 200 },
      deprecated: { removedRelease: '1.35' },
    });
    expect(e.objectRef).toBeUndefined();
    expect(e.verb).toBe('get');
    expect(e.impersonatedUser).toEqual({ username: 'jane', groups: ['system:authenticated'] });
    expect(e.responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(e.annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': 'RBAC: allowed by x',
      'k8s.io/deprecated': 'true',
      'k8s.io/removed-release': '1.35',
    });
  });

  it('keeps bodies by level and never a TokenReview token', () => {
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'very-secret' } };
    const meta = buildAuditEvent({ ...base, requestURI: '/apis/authentication.k8s.io/v1/tokenreviews', requestInfo: requestInfoFor('POST', '/apis/authentication.k8s.io/v1/tokenreviews'), requestObject: body });
    expect(meta.requestObject).toBeUndefined();
    const full = buildAuditEvent({
      ...base,
      level: 'RequestResponse',
      requestURI: '/apis/authentication.k8s.io/v1/tokenreviews',
      requestInfo: requestInfoFor('POST', '/apis/authentication.k8s.io/v1/tokenreviews'),
      requestObject: body,
      responseObject: { ...body, status: { authenticated: true } },
    });
    expect(JSON.stringify(full)).not.toContain('very-secret');
    expect(full.requestObject).toEqual({ ...body, spec: { token: '' } });
  });
});

describe('ring buffer', () => {
  it('keeps the newest entries and lists after a sequence number', () => {
    const r = new RingBuffer<string>(3);
    for (const v of ['a', 'b', 'c', 'd', 'e']) r.push(v);
    expect(r.size).toBe(3);
    expect(r.list().map((e) => [e.seq, e.value])).toEqual([
      [3, 'c'],
      [4, 'd'],
      [5, 'e'],
    ]);
    expect(r.list(4).map((e) => e.value)).toEqual(['e']);
    expect(r.list(0, 2).map((e) => e.value)).toEqual(['d', 'e']);
    expect(r.list(1).map((e) => e.value)).toEqual(['c', 'd', 'e']);
    expect(() => new RingBuffer(0)).toThrow();
  });
});
