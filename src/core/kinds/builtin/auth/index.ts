// The review objects of authentication.k8s.io and authorization.k8s.io:
// create-only, never stored; the server computes the answer (`handler`).
// selfsubjectreviews is GA in v1 and also declared at v1beta1, which a default
// 1.32 server does not serve.

import type { ResourceDefinition } from '../../types';
import { version } from '../common/define';
import { virtualResource } from '../common/define';

export const tokenReviewsResource = virtualResource({
  group: 'authentication.k8s.io',
  plural: 'tokenreviews',
  kind: 'TokenReview',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.authentication.v1.TokenReview')],
  handler: 'tokenreview',
});

export const selfSubjectReviewsResource = virtualResource({
  group: 'authentication.k8s.io',
  plural: 'selfsubjectreviews',
  kind: 'SelfSubjectReview',
  namespaced: false,
  versions: [
    version('v1', 'io.k8s.api.authentication.v1.SelfSubjectReview'),
    { ...version('v1beta1', 'io.k8s.api.authentication.v1beta1.SelfSubjectReview', { storage: false }), enabledByDefault: false },
  ],
  handler: 'selfsubjectreview',
});

export const localSubjectAccessReviewsResource = virtualResource({
  group: 'authorization.k8s.io',
  plural: 'localsubjectaccessreviews',
  kind: 'LocalSubjectAccessReview',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.authorization.v1.LocalSubjectAccessReview')],
  handler: 'localsubjectaccessreview',
});

export const selfSubjectAccessReviewsResource = virtualResource({
  group: 'authorization.k8s.io',
  plural: 'selfsubjectaccessreviews',
  kind: 'SelfSubjectAccessReview',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.authorization.v1.SelfSubjectAccessReview')],
  handler: 'selfsubjectaccessreview',
});

export const selfSubjectRulesReviewsResource = virtualResource({
  group: 'authorization.k8s.io',
  plural: 'selfsubjectrulesreviews',
  kind: 'SelfSubjectRulesReview',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.authorization.v1.SelfSubjectRulesReview')],
  handler: 'selfsubjectrulesreview',
});

export const subjectAccessReviewsResource = virtualResource({
  group: 'authorization.k8s.io',
  plural: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.authorization.v1.SubjectAccessReview')],
  handler: 'subjectaccessreview',
});

export function authenticationResources(): ResourceDefinition[] {
  return [selfSubjectReviewsResource, tokenReviewsResource];
}

export function authorizationResources(): ResourceDefinition[] {
  return [localSubjectAccessReviewsResource, selfSubjectAccessReviewsResource, selfSubjectRulesReviewsResource, subjectAccessReviewsResource];
}
