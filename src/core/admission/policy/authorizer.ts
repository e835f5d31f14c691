// The `authorizer` variable of admission CEL (kube's library of
// k8s.io/apiserver/pkg/cel/library/authz.go): authorizer.group(g).resource(r)
// [.subresource(s)][.namespace(ns)][.name(n)].check(verb),
// authorizer.path(p).check(verb), authorizer.serviceAccount(ns, name) and
// authorizer.requestResource, each check answering a decision with
// allowed(), reason(), errored() and error(). Checks ask the server's
// authorizer chain as the requesting user (or the named service account);
// they are async, so expressions using them are awaited.

import type { UserInfo } from '../../auth/types';
import { nonResourceAttributes, resourceAttributes } from '../../auth/attributes';
import type { AdmissionAttributes, AdmissionContext } from '../types';

type Authorize = NonNullable<AdmissionContext['authorize']>;

export class CelAuthorizer {
  requestResource?: CelResourceCheck;
  constructor(
    readonly user: UserInfo | undefined,
    readonly authorize: Authorize | undefined,
  ) {}
}

export class CelGroupCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
  ) {}
}

export class CelResourceCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly apiVersion = '*',
  ) {}
  with(changes: Partial<Pick<CelResourceCheck, 'subresource' | 'namespace' | 'name'>>): CelResourceCheck {
    return new CelResourceCheck(this.authz, this.group, this.resource, changes.subresource ?? this.subresource, changes.namespace ?? this.namespace, changes.name ?? this.name, this.apiVersion);
  }
}

export class CelPathCheck {
  constructor(
    readonly authz: CelAuthorizer,
    readonly path: string,
  ) {}
}

export class CelDecision {
  constructor(
    readonly decision: string,
    readonly reason: string,
    readonly error: string,
  ) {}
}

const NO_USER: UserInfo = { username: '', groups: [] } as unknown as UserInfo;

async function decide(authz: CelAuthorizer, attrs: Parameters<Authorize>[0]): Promise<CelDecision> {
  if (!authz.authorize) return new CelDecision('NoOpinion', '', 'no authorizer is configured');
  try {
    const d = (await authz.authorize(attrs)) as { decision: string; reason?: string; error?: string };
    return new CelDecision(d.decision, d.reason ?? '', d.error ?? '');
  } catch (err) {
    return new CelDecision('NoOpinion', '', err instanceof Error ? err.message : String(err));
  }
}

export function checkResource(rc: CelResourceCheck, verb: string): Promise<CelDecision> {
  return decide(
    rc.authz,
    resourceAttributes(rc.authz.user ?? NO_USER, { verb, apiGroup: rc.group, apiVersion: rc.apiVersion, resource: rc.resource, subresource: rc.subresource, namespace: rc.namespace, name: rc.name }),
  );
}

export function checkPath(pc: CelPathCheck, verb: string): Promise<CelDecision> {
  return decide(pc.authz, nonResourceAttributes(pc.authz.user ?? NO_USER, verb, pc.path));
}

/** The service account's identity (kube's serviceaccount.UserInfo without a uid). */
export function serviceAccountAuthorizer(authz: CelAuthorizer, namespace: string, name: string): CelAuthorizer {
  const user = {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  } as unknown as UserInfo;
  return new CelAuthorizer(user, authz.authorize);
}

/** The `authorizer` of one request: its user, and requestResource for the request's own resource. */
export function requestAuthorizer(attrs: AdmissionAttributes, ctx: AdmissionContext): CelAuthorizer {
  const authz = new CelAuthorizer(attrs.user, ctx.authorize);
  authz.requestResource = new CelResourceCheck(authz, attrs.resource.group, attrs.resource.resource, attrs.subresource, attrs.namespace, attrs.name, attrs.resource.version);
  return authz;
}
