// POST pods/<name>/eviction with a policy/v1 Eviction: deletes the pod with
// the eviction's delete options, unless a PodDisruptionBudget selecting it
// allows no disruption (429 with kube-apiserver's message).

import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector } from '../../selectors';
import { readTypedBody } from '../decode-object';
import type { RequestScope, ServerContext } from '../context';
import { decode, deleteObject, getObject, prefixFor } from '../resource-store';
import { objectResponse } from '../respond';
import { AdmissionRun } from '../../admission/request';
import { requestRecord } from '../handlers/request-record';

export async function handlePodEviction(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, served, request, output } = scope;
  if (request.method.toUpperCase() !== 'POST') throw errors.methodNotAllowedOnPath();
  const eviction = (await readTypedBody(request, { group: 'policy', version: 'v1', kind: 'Eviction' })) as {
    metadata?: { name?: string };
    deleteOptions?: { gracePeriodSeconds?: number; preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: string[] };
  };
  if (eviction.metadata?.name && eviction.metadata.name !== route.name) {
    throw errors.badRequest(`name in URL does not match name in Eviction object`);
  }
  const dryRun = (eviction.deleteOptions?.dryRun ?? []).includes('All');
  // The admission chain sees the Eviction as a create of pods/eviction (kube's create handler admits it before the eviction REST runs).
  await new AdmissionRun(ctx, {
    served,
    namespace: route.namespace,
    name: route.name,
    subresource: 'eviction',
    dryRun,
    kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
    recorder: requestRecord(request),
  }).create(eviction as KubeObject);
  const { object: pod } = await getObject(ctx, served, route.namespace, route.name);
  const phase = (pod['status'] as { phase?: string } | undefined)?.phase;
  // Terminal pods are deleted without consulting budgets.
  if (phase !== 'Succeeded' && phase !== 'Failed') await checkBudgets(ctx, pod);
  await deleteObject(ctx, served, route.namespace, route.name, { dryRun, preconditions: eviction.deleteOptions?.preconditions });
  return objectResponse({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, 201, output);
}

async function checkBudgets(ctx: ServerContext, pod: KubeObject): Promise<void> {
  const pdbs = ctx.registry.lookupGroupResource('policy', 'poddisruptionbudgets');
  if (!pdbs) return;
  const range = await ctx.store.range({ prefix: prefixFor(pdbs, pod.metadata?.namespace ?? '') });
  const labels = pod.metadata?.labels ?? {};
  for (const kv of range.kvs) {
    const pdb = decode(ctx, pdbs, kv) as KubeObject & { spec?: { selector?: unknown }; status?: { disruptionsAllowed?: number } };
    let matches = false;
    try {
      matches = pdb.spec?.selector !== undefined && labelSelectorAsSelector(pdb.spec.selector as never).matches(labels);
    } catch {
      matches = false;
    }
    if (!matches) continue;
    if ((pdb.status?.disruptionsAllowed ?? 0) <= 0) {
      throw errors.tooManyRequests(`Cannot evict pod as it would violate the pod's disruption budget.`, 0);
    }
  }
}
