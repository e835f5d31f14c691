// Binding a pod to a node (POST pods/<name>/binding, or POST bindings): what
// a scheduler does. The pod gets spec.nodeName and the PodScheduled
// condition; a pod already bound is a 409 with kube-apiserver's message.
// Admission sees a CREATE of the Binding (pods/binding, or bindings), as
// kube's create handler runs it: mutating plugins before the binding's
// checks, validating ones after them, before the pod is touched. The pod's
// own update is not admitted again (kube's BindingREST writes it directly).

import { rfc3339 } from '../../clock';
import { errors } from '../../errors/status';
import { fieldErrors } from '../../errors/field-errors';
import type { KubeObject } from '../../kinds/types';
import { readTypedBody } from '../decode-object';
import type { RequestScope, ServerContext } from '../context';
import { cloneObject } from '../object-codec';
import { updateObject } from '../resource-store';
import { objectResponse } from '../respond';
import { parseWriteOptions, type WriteQueryOptions } from '../write-options';
import { AdmissionRun, writeOptionsObject } from '../../admission/request';
import { requestRecord } from '../handlers/request-record';

interface Binding {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> };
  target?: { kind?: string; name?: string };
}

/** The admission run of a binding request: the Binding as a create of the route's resource (pods/binding or bindings). */
function admissionFor(ctx: ServerContext, scope: RequestScope, name: string, options: WriteQueryOptions): AdmissionRun {
  return new AdmissionRun(ctx, {
    served: scope.served,
    namespace: scope.route.namespace,
    name,
    subresource: scope.route.subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject('CreateOptions', options),
    kind: { group: '', version: 'v1', kind: 'Binding' },
    recorder: requestRecord(scope.request),
  });
}

/** The Binding as admission sees it: typed, in the request's namespace. */
function bindingObject(binding: Binding, namespace: string): KubeObject {
  const obj = { ...binding, apiVersion: 'v1', kind: 'Binding' } as KubeObject;
  obj.metadata = { ...(binding.metadata ?? {}) };
  if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
  return obj;
}

async function bind(ctx: ServerContext, scope: RequestScope, podName: string, obj: KubeObject, options: WriteQueryOptions, admission: AdmissionRun): Promise<Response> {
  const { route, output } = scope;
  const binding = obj as Binding;
  const target = binding.target ?? {};
  const errs = [];
  if (!target.name) errs.push(fieldErrors.required('target.name'));
  if (target.kind && target.kind !== 'Node') errs.push(fieldErrors.notSupported('target.kind', target.kind, ['Node', '<empty>']));
  if (errs.length) throw errors.invalid({ group: '', kind: 'Binding' }, podName, errs);
  await admission.validate(obj, undefined);
  const pods = ctx.registry.lookup('', 'v1', 'pods')!;
  await updateObject(
    ctx,
    pods,
    route.namespace,
    podName,
    {
      allowCreate: false,
      transform: async (current) => {
        if (!current) throw errors.notFound({ group: '', resource: 'pods' }, podName);
        const pod = cloneObject(current) as KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
        if (pod.metadata?.deletionTimestamp) {
          throw errors.conflict({ group: '', resource: 'pods' }, podName, `pod ${podName} is being deleted, cannot be assigned to a host`);
        }
        const assigned = pod.spec?.['nodeName'];
        if (assigned) throw errors.conflict({ group: '', resource: 'pods' }, podName, `pod ${podName} is already assigned to node ${JSON.stringify(assigned)}`);
        pod.spec = { ...(pod.spec ?? {}), nodeName: target.name };
        const status = { ...(pod.status ?? {}) };
        const conditions = ((status['conditions'] as Record<string, unknown>[] | undefined) ?? []).filter((c) => c['type'] !== 'PodScheduled');
        conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.clock.now()) });
        status['conditions'] = conditions;
        pod.status = status;
        for (const [k, v] of Object.entries(binding.metadata?.annotations ?? {})) {
          pod.metadata = { ...pod.metadata, annotations: { ...(pod.metadata?.annotations ?? {}), [k]: v } };
        }
        return pod;
      },
    },
    { dryRun: options.dryRun, subresource: 'binding' },
  );
  return objectResponse({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, 201, output);
}

async function readBinding(scope: RequestScope): Promise<Binding> {
  return (await readTypedBody(scope.request, { group: '', version: 'v1', kind: 'Binding' })) as Binding;
}

/** POST pods/<name>/binding */
export async function handlePodBinding(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  if (scope.request.method.toUpperCase() !== 'POST') throw errors.methodNotAllowedOnPath();
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const obj = bindingObject(await readBinding(scope), scope.route.namespace);
  const admission = admissionFor(ctx, scope, scope.route.name, options);
  await admission.mutate(obj, undefined);
  const bodyName = obj.metadata?.name;
  if (bodyName && bodyName !== scope.route.name) {
    throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${scope.route.name})`);
  }
  return bind(ctx, scope, scope.route.name, obj, options, admission);
}

/** POST namespaces/<ns>/bindings (the pod is named by the Binding) */
export async function handleBindingResource(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  if (scope.route.verb !== 'create') throw errors.methodNotSupported(scope.served.groupResource, scope.route.verb);
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const obj = bindingObject(await readBinding(scope), scope.route.namespace);
  const name = obj.metadata?.name ?? '';
  const admission = admissionFor(ctx, scope, name, options);
  await admission.mutate(obj, undefined);
  if (!obj.metadata?.name) throw errors.invalid({ group: '', kind: 'Binding' }, '', [fieldErrors.required('metadata.name', 'name or generateName is required')]);
  return bind(ctx, scope, obj.metadata.name, obj, options, admission);
}
