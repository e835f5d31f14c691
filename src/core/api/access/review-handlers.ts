// The review objects as virtual resources (created by POST, answered in
// status, never stored) and the TokenRequest subresource
// (serviceaccounts/<name>/token, `kubectl create token`). Bodies come in any
// encoding a client sends (kubectl sends protobuf), answers go out in the
// negotiated one, with 201 as kube-apiserver answers a create.

import {
  createLocalSubjectAccessReview,
  createSelfSubjectAccessReview,
  createSelfSubjectReview,
  createSelfSubjectRulesReview,
  createSubjectAccessReview,
  createTokenRequest,
  createTokenReview,
  type UserInfo,
} from '../../auth';
import type { AccessReviewDeps } from '../../auth/review/access-review';
import { errors } from '../../errors/status';
import type { KubeObject, SubresourceDefinition } from '../../kinds/types';
import type { RequestScope, ServerContext } from '../context';
import { readTypedBody } from '../decode-object';
import { objectResponse, warningHeaders } from '../respond';
import type { AccessControl } from './access-control';
import { tokenRequestAdmission, validatedTokenRequest } from '../custom/token-request-admission';
import { goOrdered } from '../../serialization/go-order';

function accessOf(ctx: ServerContext): AccessControl {
  if (!ctx.access) throw errors.internal(new Error('access control is not set up'));
  return ctx.access;
}

/** Only POST to the collection: a create-only storage has no other route (go-restful's 404 and 405). */
function requireCreate(scope: RequestScope): void {
  if (scope.route.name) throw errors.pathNotFound();
  if (scope.route.verb !== 'create') throw errors.methodNotAllowedOnPath();
}

async function body(scope: RequestScope): Promise<KubeObject> {
  const { served } = scope;
  const obj = (await readTypedBody(scope.request, { group: served.group, version: served.version.name, kind: served.definition.kind })) as KubeObject;
  // The answer names the version that was asked for, whatever the body said.
  return { ...obj, apiVersion: served.apiVersion, kind: served.definition.kind };
}

function reviewDeps(access: AccessControl): AccessReviewDeps {
  return {
    authorize: (attrs) => access.authorizers.authorize(attrs),
    rulesFor: (user, namespace) => access.authorizers.rulesFor(user, namespace),
  };
}

/** Fields in the order Go's encoder writes the review structs: kind, apiVersion, metadata, spec, status. */
function goFieldOrder(obj: KubeObject): KubeObject {
  const { kind, apiVersion, metadata, spec, status, ...rest } = obj as KubeObject & { spec?: unknown; status?: unknown };
  return {
    ...(kind !== undefined ? { kind } : {}),
    ...(apiVersion !== undefined ? { apiVersion } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
    ...(spec !== undefined ? { spec } : {}),
    ...(status !== undefined ? { status } : {}),
    ...rest,
  } as KubeObject;
}

function respond(scope: RequestScope, obj: KubeObject, warnings: readonly string[] = []): Response {
  // Nested structs too (SubjectAccessReviewStatus: allowed, denied, reason, evaluationError; maps sorted).
  const shown = goFieldOrder(obj);
  const ordered = shown.apiVersion && shown.kind ? goOrdered(shown, { apiVersion: shown.apiVersion, kind: shown.kind }) : shown;
  return objectResponse(ordered, 201, scope.output, warningHeaders(warnings));
}

/** A request served with no user (authentication not configured) has none to review. */
function userOf(scope: RequestScope): UserInfo | undefined {
  return scope.user;
}

export async function handleTokenReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  const access = accessOf(ctx);
  const review = await createTokenReview(await body(scope), scope.route.namespace, {
    authenticateToken: (token, audiences) => access.authenticator().authenticateToken(token, audiences),
    apiAudiences: access.config.serviceAccounts.apiAudiences,
  });
  return respond(scope, review);
}

export async function handleSelfSubjectReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  return respond(scope, createSelfSubjectReview(await body(scope), userOf(scope), ctx.clock, scope.served.apiVersion));
}

export async function handleSubjectAccessReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  return respond(scope, await createSubjectAccessReview(await body(scope), reviewDeps(accessOf(ctx))));
}

export async function handleSelfSubjectAccessReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  return respond(scope, await createSelfSubjectAccessReview(await body(scope), userOf(scope), reviewDeps(accessOf(ctx))));
}

export async function handleLocalSubjectAccessReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  return respond(scope, await createLocalSubjectAccessReview(await body(scope), scope.route.namespace, reviewDeps(accessOf(ctx))));
}

export async function handleSelfSubjectRulesReview(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  requireCreate(scope);
  return respond(scope, await createSelfSubjectRulesReview(await body(scope), userOf(scope), reviewDeps(accessOf(ctx))));
}

/** POST serviceaccounts/<name>/token. */
export async function handleServiceAccountToken(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): Promise<Response> {
  const access = accessOf(ctx);
  const { route } = scope;
  const obj = (await readTypedBody(scope.request, { group: sub.group ?? 'authentication.k8s.io', version: 'v1', kind: sub.kind })) as KubeObject;
  const admission = tokenRequestAdmission(ctx, scope, sub);
  await admission.mutate(obj, undefined);
  const sa = access.config.serviceAccounts;
  const { object, warnings } = await createTokenRequest(route.namespace, route.name, obj, {
    issuer: sa.issuers[0]!,
    apiAudiences: sa.apiAudiences,
    keys: await access.serviceAccountKeys(),
    clock: ctx.clock,
    maxExpirationSeconds: sa.maxExpirationSeconds,
    extendExpiration: sa.extendExpiration,
    getServiceAccount: (ns, name) => access.objects.get('', 'serviceaccounts', ns, name),
    getPod: (ns, name) => access.objects.get('', 'pods', ns, name),
    getSecret: (ns, name) => access.objects.get('', 'secrets', ns, name),
    getNode: (name) => access.objects.get('', 'nodes', '', name),
  });
  // kube's validating admission sees the request as TokenREST completed it (name, namespace, audiences), without the token.
  await admission.validate(validatedTokenRequest(object, obj), undefined);
  return respond(scope, object, warnings);
}
