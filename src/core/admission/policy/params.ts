// The parameter objects of a policy binding (kube's CollectParams): none when
// the policy has no paramKind or the binding no paramRef (one evaluation with
// params null); the named object or the objects a selector picks, in the
// paramRef's namespace or else the request's; nothing found is an error only
// with parameterNotFoundAction Deny.

import { labelSelectorAsSelector, type LabelSelectorObject } from '../../selectors/label-selector-object';
import type { AdmissionContext, AdmissionReader } from '../types';

/** AdmissionReader.resourceForKind (added to the chain's reader for paramKind). */
type KindResolvingReader = AdmissionReader & {
  resourceForKind?(apiVersion: string, kind: string): { group: string; resource: string; namespaced: boolean } | undefined;
};

type Obj = Record<string, unknown>;

export type ParamsResult = { params: unknown[] } | { error: string; policyLevel: boolean };

export async function collectParams(paramKind: unknown, paramRef: unknown, namespace: string, ctx: AdmissionContext): Promise<ParamsResult> {
  if (!paramKind || typeof paramKind !== 'object') return { params: [null] };
  const kind = paramKind as Obj;
  const apiVersion = String(kind.apiVersion ?? '');
  const kindName = String(kind.kind ?? '');
  const served = (ctx.reader as KindResolvingReader).resourceForKind?.(apiVersion, kindName);
  if (!served) {
    const slash = apiVersion.indexOf('/');
    const gvk = slash < 0 ? `/${apiVersion}, Kind=${kindName}` : `${apiVersion.slice(0, slash)}/${apiVersion.slice(slash + 1)}, Kind=${kindName}`;
    return { error: `failed to find resource referenced by paramKind: '${gvk}'`, policyLevel: true };
  }
  if (!paramRef || typeof paramRef !== 'object') return { params: [null] };
  const ref = paramRef as Obj;
  const refNamespace = typeof ref.namespace === 'string' ? ref.namespace : '';
  let ns = '';
  if (served.namespaced) {
    ns = refNamespace || namespace;
    if (!ns) return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources', policyLevel: false };
  } else if (refNamespace) {
    return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`', policyLevel: false };
  }
  let params: unknown[];
  if (typeof ref.name === 'string' && ref.name) {
    const found = await ctx.reader.get(served, ns, ref.name);
    params = found ? [found] : [];
  } else if (ref.selector && typeof ref.selector === 'object') {
    const selector = labelSelectorAsSelector(ref.selector as LabelSelectorObject);
    params = (await ctx.reader.list(served, ns)).filter((o) => selector.matches((o.metadata?.labels as Record<string, string>) ?? {}));
  } else {
    return { error: 'one of name or selector must be provided', policyLevel: false };
  }
  if (params.length === 0 && ref.parameterNotFoundAction === 'Deny') {
    return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction', policyLevel: false };
  }
  return { params };
}
