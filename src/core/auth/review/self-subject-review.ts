// SelfSubjectReview (authentication.k8s.io/v1): who the caller is, as the
// server sees it after authentication and impersonation (kubectl auth whoami).

import { errors } from '../../errors/status';
import { rfc3339, type Clock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import type { UserInfo } from '../types';

export function createSelfSubjectReview(body: KubeObject, user: UserInfo | undefined, clock: Clock, apiVersion = 'authentication.k8s.io/v1'): KubeObject {
  if (!user) throw errors.badRequest('no user present on request');
  const userInfo: Record<string, unknown> = {};
  if (user.username) userInfo.username = user.username;
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length) userInfo.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) userInfo.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  void body;
  return {
    kind: 'SelfSubjectReview',
    apiVersion,
    metadata: { creationTimestamp: rfc3339(clock.now()) },
    status: { userInfo },
  };
}
