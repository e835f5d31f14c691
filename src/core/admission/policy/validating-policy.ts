// The ValidatingAdmissionPolicy plugin (admissionregistration.k8s.io/v1, on by
// default in 1.32): every policy whose matchConstraints select the request is
// evaluated once per matching binding and parameter object; a failed
// validation is reported by the binding's validationActions (Deny refuses the
// request, Warn adds a Warning header, Audit adds the
// validation.policy.admission.k8s.io/validation_failure audit annotation), and
// auditAnnotations publish `<policy>/<key>`. The refusal is kube's:
// `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>' with
// binding '<b>' denied request: <message>` with the validation's reason
// (Invalid, 422, unless it names Forbidden, Unauthorized or
// RequestEntityTooLarge) and the message as the one cause.
// Policies and bindings are read at each request from the server's in-memory
// copies (collection-cache.ts; kube keeps them in informers), and a request
// with no policy at all is answered without waiting; expressions are parsed
// once per text.

import { StatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { admissionForbidden } from '../errors';
import type { AdmissionAttributes, AdmissionContext, AdmissionPlugin } from '../types';
import { admissionRequest } from './admission-request';
import { requestAuthorizer } from './authorizer';
import { AdmissionActivation, type NamedExpression } from './cel';
import { evaluateMatchConditions } from './match-conditions';
import { isExemptAdmissionConfigurationResource, matchResourcesMatch } from './matching';
import { collectParams } from './params';

type Obj = Record<string, unknown>;
const GROUP = 'admissionregistration.k8s.io';
const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;
const MAX_MESSAGE_BYTES = 5 * 1024;

interface Decision {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

const byName = (a: KubeObject, b: KubeObject) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0);

function spec(o: KubeObject): Obj {
  return ((o as Obj).spec as Obj | undefined) ?? {};
}

function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}

/** namespaceObject: the request's namespace without its bookkeeping fields (kube's CreateNamespaceObject). */
function namespaceObject(ns: KubeObject | undefined): Obj | null {
  if (!ns) return null;
  const meta = ns.metadata ?? {};
  const m: Obj = { name: meta.name };
  for (const k of ['generateName', 'namespace', 'labels', 'annotations', 'uid', 'creationTimestamp', 'deletionTimestamp', 'ownerReferences', 'finalizers']) {
    const v = (meta as Obj)[k];
    if (v !== undefined) m[k] = v;
  }
  return { metadata: m, spec: (ns as Obj).spec ?? {}, status: (ns as Obj).status ?? {} };
}

async function validationMessage(v: Obj, activation: AdmissionActivation): Promise<string> {
  if (typeof v.messageExpression === 'string' && v.messageExpression) {
    const r = await activation.evaluate(v.messageExpression);
    if (r.error === undefined && typeof r.value === 'string') {
      const m = r.value.trim();
      if (m && m.length <= MAX_MESSAGE_BYTES && !m.includes('\n')) return m;
    }
  }
  if (typeof v.message === 'string' && v.message.trim()) return v.message.trim();
  return `failed expression: ${String(v.expression ?? '').trim()}`;
}

const POLICIES = { group: GROUP, resource: 'validatingadmissionpolicies' };

export function createValidatingAdmissionPolicyPlugin(): AdmissionPlugin {
  function validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> | undefined {
    if (isExemptAdmissionConfigurationResource(attrs)) return;
    if (ctx.reader.cached?.(POLICIES)?.list('').length === 0) return;
    return evaluatePolicies(attrs, ctx);
  }

  async function evaluatePolicies(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void> {
    const policies = (await ctx.reader.list(POLICIES, '')).sort(byName);
    if (!policies.length) return;
    const bindings = (await ctx.reader.list({ group: GROUP, resource: 'validatingadmissionpolicybindings' }, '')).sort(byName);
    const denied: Decision[] = [];
    const request = admissionRequest(attrs, crypto.randomUUID(), false);
    const authorizer = requestAuthorizer(attrs, ctx);
    const isNamespaceObject = attrs.kind.group === '' && attrs.kind.version === 'v1' && attrs.kind.kind === 'Namespace';
    let nsObject: Obj | null | undefined;

    for (const policy of policies) {
      const policyName = policy.metadata?.name ?? '';
      const p = spec(policy);
      const failClosed = p.failurePolicy !== 'Ignore';
      const configError = (message: string, binding?: string) => {
        if (failClosed) denied.push({ policy: policyName, ...(binding !== undefined ? { binding } : {}), message });
      };
      if (!(await matchResourcesMatch(p.matchConstraints, attrs, ctx))) continue;
      const own = bindings.filter((b) => spec(b).policyName === policyName);
      const annotations = new Map<string, string[]>();
      for (const binding of own) {
        const bindingName = binding.metadata?.name ?? '';
        const b = spec(binding);
        if (b.matchResources && !(await matchResourcesMatch(b.matchResources, attrs, ctx))) continue;
        const params = await collectParams(p.paramKind, b.paramRef, attrs.namespace, ctx);
        if ('error' in params) {
          configError(`failed to configure ${params.policyLevel ? 'policy' : 'binding'}: ${params.error}`, params.policyLevel ? undefined : bindingName);
          continue;
        }
        if (nsObject === undefined) {
          nsObject = !isNamespaceObject && attrs.namespace ? namespaceObject(await ctx.reader.get({ group: '', resource: 'namespaces' }, '', attrs.namespace)) : null;
        }
        const actions = Array.isArray(b.validationActions) ? (b.validationActions as string[]) : [];
        const variables: NamedExpression[] = (Array.isArray(p.variables) ? (p.variables as Obj[]) : []).map((v) => ({ name: String(v.name ?? ''), expression: String(v.expression ?? '') }));
        for (const param of params.params) {
          const activation = new AdmissionActivation(
            { object: attrs.operation === 'DELETE' ? null : attrs.object, oldObject: attrs.oldObject, request, params: param, namespaceObject: nsObject, authorizer },
            variables,
          );
          await activation.prepareVariables();
          const decisions: { message: string; reason?: string; index: number }[] = [];
          const match = await evaluateMatchConditions(p.matchConditions, activation);
          if (match.error !== undefined) {
            if (failClosed) decisions.push({ message: match.error, index: 0 });
          } else if (match.matches) {
            const validations = Array.isArray(p.validations) ? (p.validations as Obj[]) : [];
            for (const [index, v] of validations.entries()) {
              const r = await activation.evaluate(String(v.expression ?? ''));
              if (r.error !== undefined) {
                if (failClosed) decisions.push({ message: r.error, index });
              } else if (r.value !== true) {
                decisions.push({ message: await validationMessage(v, activation), reason: typeof v.reason === 'string' && v.reason ? v.reason : 'Invalid', index });
              }
            }
            for (const a of Array.isArray(p.auditAnnotations) ? (p.auditAnnotations as Obj[]) : []) {
              const r = await activation.evaluate(String(a.valueExpression ?? ''));
              const key = String(a.key ?? '');
              if (r.error !== undefined) {
                if (failClosed) denied.push({ policy: policyName, binding: bindingName, message: r.error });
              } else if (typeof r.value === 'string') {
                const value = r.value.trim().slice(0, MAX_AUDIT_ANNOTATION_VALUE);
                if (value) {
                  const list = annotations.get(key) ?? [];
                  if (!list.includes(value)) list.push(value);
                  annotations.set(key, list);
                }
              } else if (r.value !== null && r.value !== undefined) {
                if (failClosed) {
                  denied.push({
                    policy: policyName,
                    binding: bindingName,
                    message: `valueExpression '${String(a.valueExpression)}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`,
                  });
                }
              }
            }
          }
          for (const d of decisions) {
            for (const action of actions) {
              if (action === 'Deny') denied.push({ policy: policyName, binding: bindingName, message: d.message, ...(d.reason ? { reason: d.reason } : {}) });
              else if (action === 'Warn') attrs.addWarning(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`);
              else if (action === 'Audit') {
                attrs.addAuditAnnotation(
                  'validation.policy.admission.k8s.io/validation_failure',
                  JSON.stringify([{ message: d.message, policy: policyName, binding: bindingName, expressionIndex: d.index, validationActions: actions }]),
                );
              }
            }
          }
        }
      }
      for (const [key, values] of annotations) attrs.addAuditAnnotation(`${policyName}/${key}`, values.join(', '));
    }

    const first = denied[0];
    if (!first) return;
    const message =
      first.binding !== undefined
        ? `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
        : `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`;
    const forbidden = admissionForbidden(attrs, message);
    const reason = first.reason ?? 'Invalid';
    throw new StatusError(reasonToCode(reason), reason, forbidden.status.message ?? message, { ...forbidden.status.details, causes: [{ message }] });
  }

  return {
    name: 'ValidatingAdmissionPolicy',
    handles: () => true,
    validate,
  };
}

function celTypeName(value: unknown): string {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Map || typeof value === 'object') return 'map';
  return typeof value;
}


