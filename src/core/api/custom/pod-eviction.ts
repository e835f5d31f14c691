// POST pods/<name>/eviction with a policy/v1 Eviction: kube-apiserver's
// EvictionREST. A pod that cannot disrupt anything more (Pending, finished,
// already being deleted) is deleted outright. Otherwise the one
// PodDisruptionBudget selecting it decides: a pod that is not Ready may go
// while the budget is healthy (or always, with unhealthyPodEvictionPolicy
// AlwaysAllow), guarded by its resourceVersion; a Ready pod needs
// disruptionsAllowed > 0, which the eviction decrements, recording the pod
// in disruptedPods — a compare-and-swap on the budget's status, retried on
// conflict — before the delete; none left is a 429 "Cannot evict pod as it
// would violate the pod's disruption budget." (what holds `kubectl drain`
// back). Before the delete the pod gets the DisruptionTarget condition
// (EvictionByEvictionAPI). Budgets with more than one match are refused.

import { StatusError, errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { labelSelectorAsSelector } from '../../selectors';
import { rfc3339 } from '../../clock';
import { readTypedBody } from '../decode-object';
import type { RequestScope, ServerContext } from '../context';
import type { ServedResource } from '../registry';
import { decode, deleteObject, getObject, prefixFor, updateObject } from '../resource-store';
import { objectResponse } from '../respond';
import { AdmissionRun } from '../../admission/request';
import { requestRecord } from '../handlers/request-record';
import { withDisruptionAllowedCondition, type PdbStatus } from '../../controllers/disruption/pdb-status';

/** MaxDisruptedPodSize: evictions awaiting the disruption controller beyond which a budget refuses more. */
const MAX_DISRUPTED_POD_SIZE = 2000;
/** EvictionsRetry: how often a conflicting budget update is tried. */
const EVICTION_RETRIES = 20;
const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
}

function phaseOf(pod: KubeObject): string {
  return String(rec(pod['status']).phase ?? '');
}

function isReady(pod: KubeObject): boolean {
  return arr(rec(pod['status']).conditions).some((c) => rec(c).type === 'Ready' && rec(c).status === 'True');
}

/** canIgnorePDB: finished, Pending, or already being deleted. */
function canIgnorePDB(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

/** shouldEnforceResourceVersion: not finished and not being deleted. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** A 429 with the DisruptionBudget cause kube adds. */
function tooManyRequests(retryAfterSeconds: number, cause: string): StatusError {
  const details = { ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message: cause }] };
  return new StatusError(429, 'TooManyRequests', EVICTION_REFUSED, details, retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {});
}

/** createTooManyRequestsError: the budget has not caught up yet. */
function budgetBeingProcessed(name: string): StatusError {
  return tooManyRequests(10, `The disruption budget ${name} is still being processed by the server.`);
}

/** propagateDryRun: the query's dryRun and the Eviction's deleteOptions must agree. */
function deleteOptionsOf(eviction: { deleteOptions?: DeleteOptions }, queryDryRun: string[]): DeleteOptions {
  const options = { ...(eviction.deleteOptions ?? {}) };
  const own = options.dryRun ?? [];
  if (own.length === 0) options.dryRun = queryDryRun;
  else if (queryDryRun.length > 0 && JSON.stringify(queryDryRun) !== JSON.stringify(own)) {
    throw new StatusError(500, '', `Non-matching dry-run options in request and content: [${queryDryRun.join(' ')}] and [${own.join(' ')}]`);
  }
  return options;
}

/** getPodDisruptionBudgets: the budgets whose (non-empty) selector matches the pod. */
async function budgetsFor(ctx: ServerContext, pdbs: ServedResource, pod: KubeObject): Promise<KubeObject[]> {
  const range = await ctx.store.range({ prefix: prefixFor(pdbs, pod.metadata?.namespace ?? '') });
  const labels = pod.metadata?.labels ?? {};
  const out: KubeObject[] = [];
  for (const kv of range.kvs) {
    const pdb = decode(ctx, pdbs, kv);
    try {
      const selector = labelSelectorAsSelector(rec(pdb['spec']).selector as never);
      // A nil or empty selector matches nothing here.
      if (!selector.empty() && selector.matches(labels)) out.push(pdb);
    } catch {
      // An invalid selector matches no pod.
    }
  }
  return out;
}

/** checkAndDecrement on the stored budget, atomically: a compare-and-swap retried on conflict. */
async function checkAndDecrement(ctx: ServerContext, pdbs: ServedResource, pdb: KubeObject, podName: string, dryRun: boolean): Promise<void> {
  const namespace = pdb.metadata?.namespace ?? '';
  const name = pdb.metadata?.name ?? '';
  let attempts = 0;
  await updateObject(
    ctx,
    pdbs,
    namespace,
    name,
    {
      allowCreate: false,
      transform: async (current) => {
        if (!current) throw errors.notFound(pdbs.groupResource, name);
        if (++attempts > EVICTION_RETRIES) throw new StatusError(504, 'Timeout', `couldn't update PodDisruptionBudget ${JSON.stringify(name)} due to conflicts`, { retryAfterSeconds: 10 });
        const status = rec(current['status']);
        const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
        if (((status.observedGeneration as number | undefined) ?? 0) < (current.metadata?.generation ?? 0)) throw budgetBeingProcessed(name);
        if (allowed < 0) throw errors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, 'pdb disruptions allowed is negative');
        if (Object.keys(rec(status.disruptedPods)).length > MAX_DISRUPTED_POD_SIZE) {
          throw errors.forbidden({ group: 'policy', resource: 'poddisruptionbudget' }, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
        }
        if (allowed === 0) throw tooManyRequests(0, `The disruption budget ${name} needs ${String(status.desiredHealthy ?? 0)} healthy pods and has ${String(status.currentHealthy ?? 0)} currently`);
        let next: PdbStatus = { ...(status as unknown as PdbStatus), disruptionsAllowed: allowed - 1 };
        if (next.disruptionsAllowed === 0) next = withDisruptionAllowedCondition({ ...next, conditions: arr(status.conditions).map(rec) }, ctx.clock.now());
        next.disruptedPods = { ...(rec(status.disruptedPods) as Record<string, string>), [podName]: rfc3339(ctx.clock.now()) };
        return { ...structuredClone(current), status: next } as KubeObject;
      },
    },
    // A dry run checks and decrements, but writes nothing.
    { dryRun, subresource: 'status' },
  );
}

/** addConditionAndDeletePod: the DisruptionTarget condition, then the delete (its resourceVersion precondition moved past the condition's write). */
async function addConditionAndDelete(ctx: ServerContext, pods: ServedResource, namespace: string, name: string, options: DeleteOptions): Promise<void> {
  const dryRun = (options.dryRun ?? []).includes('All');
  let preconditions = options.preconditions;
  if (!dryRun) {
    const { object: updated } = await updateObject(
      ctx,
      pods,
      namespace,
      name,
      {
        allowCreate: false,
        transform: async (current) => {
          if (!current) throw errors.notFound(pods.groupResource, name);
          const pre = options.preconditions;
          if (pre?.uid && pre.uid !== current.metadata?.uid) {
            throw errors.conflict(pods.groupResource, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata?.uid ?? ''}`);
          }
          if (pre?.resourceVersion && pre.resourceVersion !== current.metadata?.resourceVersion) {
            throw errors.conflict(pods.groupResource, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata?.resourceVersion ?? ''}`);
          }
          const next = structuredClone(current);
          const status = rec(next['status']);
          next['status'] = status;
          const conditions = arr(status.conditions).map(rec);
          const now = rfc3339(ctx.clock.now());
          const condition: Obj = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
          const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
          if (at < 0) conditions.push(condition);
          else {
            if (conditions[at]!.status === condition.status) condition.lastTransitionTime = conditions[at]!.lastTransitionTime;
            conditions[at] = condition;
          }
          status.conditions = conditions;
          return next;
        },
      },
      { dryRun: false, subresource: 'status' },
    );
    if (preconditions?.resourceVersion) preconditions = { ...preconditions, resourceVersion: updated.metadata?.resourceVersion };
  }
  await deleteObject(ctx, pods, namespace, name, {
    dryRun,
    ...(preconditions ? { preconditions } : {}),
    ...(options.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}),
    ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
  });
}

function success(output: RequestScope['output']): Response {
  return objectResponse({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, 201, output);
}

export async function handlePodEviction(ctx: ServerContext, scope: RequestScope): Promise<Response> {
  const { route, served, request, output } = scope;
  if (request.method.toUpperCase() !== 'POST') throw errors.methodNotAllowedOnPath();
  const eviction = (await readTypedBody(request, { group: 'policy', version: 'v1', kind: 'Eviction' })) as { metadata?: { name?: string }; deleteOptions?: DeleteOptions };
  if ((eviction.metadata?.name ?? '') !== route.name) throw errors.badRequest(`name in URL does not match name in Eviction object`);
  const options = deleteOptionsOf(eviction, scope.query.getAll('dryRun'));
  const dryRun = (options.dryRun ?? []).includes('All');
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
  const rvUnset = !options.preconditions?.resourceVersion;
  if (canIgnorePDB(pod)) {
    const deleteOptions = shouldEnforceResourceVersion(pod) && rvUnset ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata?.resourceVersion } } : options;
    await addConditionAndDelete(ctx, served, route.namespace, route.name, deleteOptions);
    return success(output);
  }

  const pdbs = ctx.registry.lookupGroupResource('policy', 'poddisruptionbudgets');
  const budgets = pdbs ? await budgetsFor(ctx, pdbs, pod) : [];
  if (budgets.length > 1) {
    return objectResponse(
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 },
      500,
      output,
    );
  }
  let guardByVersion = false;
  const pdb = budgets[0];
  if (pdb && pdbs) {
    const status = rec(pdb['status']);
    const policy = rec(pdb['spec']).unhealthyPodEvictionPolicy;
    const currentHealthy = Number(status.currentHealthy ?? 0);
    const desiredHealthy = Number(status.desiredHealthy ?? 0);
    if (!isReady(pod) && (policy === 'AlwaysAllow' || (currentHealthy >= desiredHealthy && desiredHealthy > 0))) {
      // An unhealthy pod does not count towards the budget: it may go, if it does not become Ready meanwhile.
      guardByVersion = true;
    } else {
      await checkAndDecrement(ctx, pdbs, pdb, pod.metadata?.name ?? '', dryRun);
    }
  }
  const deleteOptions = guardByVersion ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata?.resourceVersion } } : options;
  try {
    await addConditionAndDelete(ctx, served, route.namespace, route.name, deleteOptions);
  } catch (err) {
    if (err instanceof StatusError && err.code === 409 && guardByVersion && rvUnset) throw budgetBeingProcessed(pdb?.metadata?.name ?? '');
    throw err;
  }
  return success(output);
}
