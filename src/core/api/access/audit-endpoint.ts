// GET /kubetab/v1/audit — KubeTab's own endpoint (not a Kubernetes API): the
// audit log with each request's authentication steps and authorization trace,
// for the UI. A non-resource path, so reading it needs `get` on
// /kubetab/v1/audit (system:masters has it; grant others with a ClusterRole
// rule `nonResourceURLs: ["/kubetab/v1/audit"]`). See README.md for the shape.

import { errors } from '../../errors/status';
import type { AccessControl } from './access-control';

export const AUDIT_PATH = '/kubetab/v1/audit';

function nonNegativeInteger(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  if (!/^\d+$/.test(text)) throw errors.badRequest(`invalid ${name} ${JSON.stringify(text)}: must be a non-negative integer`);
  return Number(text);
}

export function handleAuditEndpoint(access: AccessControl, method: string, query: URLSearchParams): Response {
  if (method !== 'GET' && method !== 'HEAD') throw errors.methodNotAllowedOnPath();
  const limit = nonNegativeInteger(query, 'limit');
  const since = nonNegativeInteger(query, 'since');
  const items = access.audit.list({ ...(since !== undefined ? { since } : {}), ...(limit ? { limit } : {}) });
  const body = {
    kind: 'AuditRecordList',
    apiVersion: 'kubetab.dev/v1',
    metadata: { next: access.audit.next, capacity: access.audit.capacity },
    items,
  };
  return new Response(method === 'HEAD' ? null : JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}
