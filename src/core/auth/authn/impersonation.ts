// Impersonation (filters.WithImpersonation): Impersonate-User,
// Impersonate-Group (repeatable), Impersonate-Uid and Impersonate-Extra-<key>
// headers. Each requested thing is checked with the `impersonate` verb on
// users / serviceaccounts / groups (core group), uids and userextras/<key>
// (authentication.k8s.io); the first refusal is a 403 with kube's text. The
// new user gets system:authenticated (or system:unauthenticated when it is
// system:anonymous) unless the requested groups already name one; a service
// account without requested groups gets its fixed groups.

import { forbiddenError } from '../authorizer/forbidden';
import { errors, type StatusError } from '../../errors/status';
import { resourceAttributes } from '../attributes';
import { serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername } from './service-account';
import { GROUP, USER, type Attributes, type AuthnRequest, type Decision, type UserInfo } from '../types';

const EXTRA_PREFIX = 'impersonate-extra-';

interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

/** Go's %v of a []v1.ObjectReference, as kube's error message prints it. */
function goObjectRefs(refs: readonly ImpersonationRequest[]): string {
  return `[${refs.map((r) => `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`).join(' ')}]`;
}

function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

export function impersonationRequests(req: AuthnRequest): { requests: ImpersonationRequest[]; error?: string } {
  const requests: ImpersonationRequest[] = [];
  const user = req.header('impersonate-user') ?? '';
  const make = (kind: ImpersonationRequest['kind'], name: string, extra: Partial<ImpersonationRequest> = {}): ImpersonationRequest => ({
    kind,
    namespace: '',
    name,
    apiVersion: '',
    fieldPath: '',
    ...extra,
  });
  if (user) {
    const sa = splitServiceAccountUsername(user);
    requests.push(sa ? make('ServiceAccount', sa.name, { namespace: sa.namespace }) : make('User', user));
  }
  const groups = req.headerValues('impersonate-group');
  for (const g of groups) requests.push(make('Group', g));
  let hasExtra = false;
  for (const name of req.headerNames()) {
    if (!name.startsWith(EXTRA_PREFIX)) continue;
    hasExtra = true;
    const key = unescapeExtraKey(name.slice(EXTRA_PREFIX.length).toLowerCase());
    for (const value of req.headerValues(name)) requests.push(make('UserExtra', value, { apiVersion: 'authentication.k8s.io/v1', fieldPath: key }));
  }
  const uid = req.header('impersonate-uid') ?? '';
  if (uid) requests.push(make('UID', uid, { apiVersion: 'authentication.k8s.io/v1' }));
  if ((groups.length > 0 || hasExtra || uid) && !user) {
    return { requests: [], error: `requested ${goObjectRefs(requests)} without impersonating a user` };
  }
  return { requests };
}

export interface ImpersonationResult {
  /** The user the request continues as (the requestor when nothing was asked). */
  readonly user?: UserInfo;
  readonly impersonated: boolean;
  readonly error?: StatusError;
  /** The authorization decisions taken, for the audit trace. */
  readonly checks: { attributes: Attributes; decision: Decision }[];
}

export async function impersonate(
  req: AuthnRequest,
  requestor: UserInfo,
  authorize: (attrs: Attributes) => Promise<Decision>,
): Promise<ImpersonationResult> {
  const parsed = impersonationRequests(req);
  if (parsed.error) return { impersonated: false, error: errors.internal(new Error(parsed.error)), checks: [] };
  if (parsed.requests.length === 0) return { user: requestor, impersonated: false, checks: [] };
  const groupsSpecified = req.headerValues('impersonate-group').length > 0;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  const checks: ImpersonationResult['checks'] = [];
  for (const r of parsed.requests) {
    let attrs: Attributes;
    switch (r.kind) {
      case 'ServiceAccount':
        attrs = resourceAttributes(requestor, { verb: 'impersonate', apiVersion: 'v1', resource: 'serviceaccounts', namespace: r.namespace, name: r.name });
        username = serviceAccountUsername(r.namespace, r.name);
        if (!groupsSpecified) groups = serviceAccountGroups(r.namespace);
        break;
      case 'User':
        attrs = resourceAttributes(requestor, { verb: 'impersonate', apiVersion: 'v1', resource: 'users', name: r.name });
        username = r.name;
        break;
      case 'Group':
        attrs = resourceAttributes(requestor, { verb: 'impersonate', apiVersion: 'v1', resource: 'groups', name: r.name });
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs = resourceAttributes(requestor, {
          verb: 'impersonate',
          apiGroup: 'authentication.k8s.io',
          apiVersion: 'v1',
          resource: 'userextras',
          subresource: r.fieldPath,
          name: r.name,
        });
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        attrs = resourceAttributes(requestor, { verb: 'impersonate', apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: r.name });
        uid = r.name;
        break;
    }
    const decision = await authorize(attrs);
    checks.push({ attributes: attrs, decision });
    if (decision.decision !== 'Allow') return { impersonated: false, error: forbiddenError(attrs, decision.reason), checks };
  }
  if (username !== USER.anonymous) {
    if (!groups.includes(GROUP.authenticated) && !groups.includes(GROUP.unauthenticated)) groups.push(GROUP.authenticated);
  } else if (!groups.includes(GROUP.unauthenticated)) {
    groups.push(GROUP.unauthenticated);
  }
  const user: UserInfo = { username, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
  return { user, impersonated: true, checks };
}
