// Admission of serviceaccounts/<name>/token: kube's create handler admits the
// TokenRequest as a CREATE of serviceaccounts/token (kind
// authentication.k8s.io/v1 TokenRequest, named after the service account).
// Mutating plugins (NodeRestriction's rules for nodes among them) see the
// body as sent, before the service account is looked up; validating ones see
// it as TokenREST completed it (name, namespace, creation time, default
// audiences) with its status cleared. KubeTab's TokenRequest runs in one
// piece (src/core/auth/authn/token-request.ts), so the validating phase comes
// after its lookups of the bound object rather than just before them: a
// refused request is refused either way, only the reason reported first can
// differ when the bound object is also missing.

import type { KubeObject, SubresourceDefinition } from '../../kinds/types';
import { AdmissionRun, writeOptionsObject } from '../../admission/request';
import type { RequestScope, ServerContext } from '../context';
import { requestRecord } from '../handlers/request-record';
import { parseWriteOptions } from '../write-options';

export function tokenRequestAdmission(ctx: ServerContext, scope: RequestScope, sub: SubresourceDefinition): AdmissionRun {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  return new AdmissionRun(ctx, {
    served: scope.served,
    namespace: scope.route.namespace,
    name: scope.route.name,
    subresource: scope.route.subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject('CreateOptions', options),
    kind: { group: sub.group ?? 'authentication.k8s.io', version: sub.version ?? 'v1', kind: sub.kind ?? 'TokenRequest' },
    recorder: requestRecord(scope.request),
  });
}

/**
 * The TokenRequest validating admission sees: the answer without its token
 * (status cleared, as TokenREST clears it before validation) and with the
 * expiration the client asked for (or the 3600 s default), before any cap.
 */
export function validatedTokenRequest(answer: KubeObject, body: KubeObject): KubeObject {
  const asked = (body['spec'] as { expirationSeconds?: number } | undefined)?.expirationSeconds;
  const spec = { ...((answer['spec'] as Record<string, unknown> | undefined) ?? {}), expirationSeconds: asked ?? 3600 };
  return { ...answer, metadata: { ...(answer.metadata ?? {}) }, spec, status: { token: '', expirationTimestamp: null } };
}
