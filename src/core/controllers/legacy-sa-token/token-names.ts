// The names legacy (Secret-based) service-account tokens use: the Secret
// type, its annotations and data keys, the 1.32 tracking labels the
// authenticator and the cleaner write, and the ConfigMap kube-apiserver
// keeps to say since when it tracks token use.

import type { GroupVersionResource } from '../client/resource-path';

export const SECRETS: GroupVersionResource = { group: '', version: 'v1', resource: 'secrets' };
export const SERVICE_ACCOUNTS: GroupVersionResource = { group: '', version: 'v1', resource: 'serviceaccounts' };
export const CONFIGMAPS: GroupVersionResource = { group: '', version: 'v1', resource: 'configmaps' };

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const ANN_SERVICE_ACCOUNT_NAME = 'kubernetes.io/service-account.name';
export const ANN_SERVICE_ACCOUNT_UID = 'kubernetes.io/service-account.uid';
export const KEY_TOKEN = 'token';
export const KEY_CA = 'ca.crt';
export const KEY_NAMESPACE = 'namespace';

/** Set by the authenticator, the UTC date a legacy token was last used. */
export const LABEL_LAST_USED = 'kubernetes.io/legacy-token-last-used';
/** Set by the cleaner on an auto-generated token it found unused: the token no longer authenticates. */
export const LABEL_INVALID_SINCE = 'kubernetes.io/legacy-token-invalid-since';

export const TRACKING_CONFIGMAP = 'kube-apiserver-legacy-service-account-token-tracking';
export const TRACKING_SINCE_KEY = 'since';

/** Go's "2006-01-02" of a time, in UTC. */
export const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
