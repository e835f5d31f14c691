// The TokenRequest subresource (POST serviceaccounts/<name>/token, what
// `kubectl create token` calls), as kube-apiserver 1.32's TokenREST does it:
// metadata must match the service account, audiences default to the API
// server's, expirationSeconds defaults to 3600 and must be at least 10
// minutes, a bound object (Pod, Secret or Node) must exist (and match its UID
// when one is given), a pod must run as this service account, the expiration
// is capped by --service-account-max-token-expiration (with a warning), and a
// pod-bound token asking for 3607 s for the API server is extended to a year
// with `warnafter` (--service-account-extend-token-expiration).

import { errors, StatusError } from '../../errors/status';
import { fieldErrors, type FieldError } from '../../errors/field-errors';
import { rfc3339, type Clock } from '../../clock';
import type { KubeObject } from '../../kinds/types';
import { issueServiceAccountToken } from './service-account';
import type { ServiceAccountKeys } from './service-account-keys';

export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 60 * 60;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 4294967295;

type Lookup = KubeObject | undefined | Promise<KubeObject | undefined>;

export interface TokenRequestDeps {
  readonly issuer: string;
  readonly apiAudiences: readonly string[];
  readonly keys: ServiceAccountKeys;
  readonly clock: Clock;
  /** --service-account-max-token-expiration in seconds (0: no cap). */
  readonly maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  readonly extendExpiration?: boolean;
  getServiceAccount(namespace: string, name: string): Lookup;
  getPod(namespace: string, name: string): Lookup;
  getSecret(namespace: string, name: string): Lookup;
  getNode(name: string): Lookup;
}

const GK = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
const meta = (o: KubeObject): { name?: string; namespace?: string; uid?: string } => (o.metadata ?? {}) as { name?: string; namespace?: string; uid?: string };

export async function createTokenRequest(
  namespace: string,
  serviceAccountName: string,
  body: KubeObject,
  deps: TokenRequestDeps,
): Promise<{ object: KubeObject; warnings: string[] }> {
  const reqMeta = { ...((body.metadata ?? {}) as Record<string, unknown>) } as { name?: string; namespace?: string; [k: string]: unknown };
  if (reqMeta.name && reqMeta.name !== serviceAccountName) {
    throw errors.invalid(GK, serviceAccountName, [fieldErrors.invalid('metadata.name', reqMeta.name, 'must match the service account name if specified')]);
  }
  if (reqMeta.namespace && reqMeta.namespace !== namespace) {
    throw errors.invalid(GK, serviceAccountName, [fieldErrors.invalid('metadata.namespace', reqMeta.namespace, 'must match the service account namespace if specified')]);
  }
  const sa = await deps.getServiceAccount(namespace, serviceAccountName);
  if (!sa) throw errors.notFound({ group: '', resource: 'serviceaccounts' }, serviceAccountName);

  const spec = { ...((body.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } }) };
  if (!spec.audiences?.length) spec.audiences = [...deps.apiAudiences];
  if (spec.expirationSeconds === undefined || spec.expirationSeconds === null) spec.expirationSeconds = 3600;
  const now = deps.clock.now();

  const errs: FieldError[] = [];
  if (spec.expirationSeconds < MIN_EXPIRATION_SECONDS) errs.push(fieldErrors.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (spec.expirationSeconds > MAX_EXPIRATION_SECONDS) errs.push(fieldErrors.tooLong('spec.expirationSeconds', MAX_EXPIRATION_SECONDS));
  if (errs.length) throw errors.invalid(GK, '', errs);

  let boundObject: { kind: 'Pod' | 'Secret' | 'Node'; name: string; uid: string } | undefined;
  let node: { name: string; uid: string } | undefined;
  const ref = spec.boundObjectRef;
  if (ref) {
    const apiVersion = ref.apiVersion ?? '';
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
    const name = ref.name ?? '';
    let uid = '';
    if (group === '' && ref.kind === 'Pod') {
      const pod = await deps.getPod(namespace, name);
      if (!pod) throw errors.notFound({ group: '', resource: 'pods' }, name);
      const podSpec = (pod.spec ?? {}) as { serviceAccountName?: string; nodeName?: string };
      if ((podSpec.serviceAccountName ?? 'default') !== serviceAccountName) {
        throw errors.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(serviceAccountName)} to pod running with different serviceaccount name.`);
      }
      uid = meta(pod).uid ?? '';
      boundObject = { kind: 'Pod', name, uid };
      if (podSpec.nodeName) {
        // A missing Node still puts its name in the token (ServiceAccountTokenPodNodeInfo).
        const n = await deps.getNode(podSpec.nodeName);
        node = { name: podSpec.nodeName, uid: n ? (meta(n).uid ?? '') : '' };
      }
    } else if (group === '' && ref.kind === 'Node') {
      const n = await deps.getNode(name);
      if (!n) throw errors.notFound({ group: '', resource: 'nodes' }, name);
      uid = meta(n).uid ?? '';
      boundObject = { kind: 'Node', name, uid };
    } else if (group === '' && ref.kind === 'Secret') {
      const secret = await deps.getSecret(namespace, name);
      if (!secret) throw errors.notFound({ group: '', resource: 'secrets' }, name);
      uid = meta(secret).uid ?? '';
      boundObject = { kind: 'Secret', name, uid };
    } else {
      const version = apiVersion.includes('/') ? apiVersion.split('/')[1]! : apiVersion;
      // schema.GroupVersionKind.String(): "/v1, Kind=ConfigMap" for the core group.
      throw errors.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
    }
    if (ref.uid && ref.uid !== uid) {
      throw new StatusError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${ref.kind} ${JSON.stringify(name)}: the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        { name, kind: ref.kind ?? '' },
      );
    }
  }

  const warnings: string[] = [];
  if (deps.maxExpirationSeconds && spec.expirationSeconds > deps.maxExpirationSeconds) {
    warnings.push(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${deps.maxExpirationSeconds} seconds`);
    spec.expirationSeconds = deps.maxExpirationSeconds;
  }
  let exp = spec.expirationSeconds;
  let warnAfterSeconds: number | undefined;
  const kubeAudiences = spec.audiences.every((a) => deps.apiAudiences.includes(a));
  if ((deps.extendExpiration ?? true) && boundObject?.kind === 'Pod' && exp === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && kubeAudiences) {
    warnAfterSeconds = exp;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const { token } = await issueServiceAccountToken({
    issuer: deps.issuer,
    keys: deps.keys,
    clock: deps.clock,
    namespace,
    serviceAccount: { name: serviceAccountName, uid: meta(sa).uid ?? '' },
    audiences: spec.audiences,
    expirationSeconds: exp,
    ...(boundObject ? { boundObject } : {}),
    ...(node ? { node } : {}),
    ...(warnAfterSeconds ? { warnAfterSeconds } : {}),
  });
  const object: KubeObject = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...reqMeta, name: serviceAccountName, namespace, creationTimestamp: rfc3339(now) },
    spec,
    status: { token, expirationTimestamp: rfc3339(now + spec.expirationSeconds * 1000) },
  };
  return { object, warnings };
}
