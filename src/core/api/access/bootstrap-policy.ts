// kube-apiserver's rbac/bootstrap-roles post-start hook: at every start the
// default RBAC policy of 1.32 is reconciled with what is stored — missing
// objects created, missing rules, selectors, labels, annotations and
// subjects added, a binding whose roleRef changed recreated — except objects
// annotated rbac.authorization.kubernetes.io/autoupdate: "false".
//
// The writes use the generic registry store as system:apiserver (kube's
// loopback client, whose User-Agent makes the field manager
// "kube-apiserver"): defaults, escalation checks, validation and managed
// fields as for any client, without encoding each object into an HTTP
// request and back. The namespace of a namespaced role is created when
// missing, as kube's reconciler does.
//
// A fresh cluster gets about 120 objects at its first start, and tests start
// many fresh clusters: the objects the first fresh start of this process
// stored are kept, and a later fresh start stores the same objects (new uid
// and timestamps) in one batch instead of recomputing each.

import { bootstrapPolicy, planBootstrapReconcile, RBAC_GROUP, type BootstrapWrite } from '../../auth';
import { isStatusError } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import type { ServerContext } from '../context';
import { fieldManagerName, managedFieldsHook } from '../field-management';
import { cloneObject } from '../object-codec';
import { createObject, deleteObject, keyFor, strategyContext, updateObject } from '../resource-store';
import { encodeForStorage } from '../object-codec';
import { rfc3339 } from '../../clock';
import type { BatchOp } from '../../storage/types';
import type { AccessControl } from './access-control';
import { APISERVER_USER } from './internal-identities';

export const APISERVER_USER_AGENT = 'kube-apiserver/v1.32.0 (kubetab) kubernetes/kubetab';

const PLURAL: Record<BootstrapWrite['kind'], string> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

let manager: string | undefined;
/** The field manager kube's loopback client writes as ("kube-apiserver"). */
const MANAGER = (): string => (manager ??= fieldManagerName(undefined, APISERVER_USER_AGENT));

/** Yields to the event loop so that requests arriving meanwhile are served. */
const yieldToRequests = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** tryEnsureNamespace: the namespace of a default Role exists before the Role. */
async function ensureNamespace(ctx: ServerContext, name: string): Promise<void> {
  const served = ctx.registry.lookup('', 'v1', 'namespaces');
  if (!served || (await ctx.store.get(keyFor(served, '', name)))) return;
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject;
  served.definition.strategy.default?.(ns, strategyContext(ctx, served, '', false));
  try {
    // As the system namespaces are created (src/core/api/bootstrap.ts).
    await createObject(ctx, served, ns, { dryRun: false, subresource: '' });
  } catch (err) {
    if (!(isStatusError(err) && err.code === 409)) throw err;
  }
}

async function write(ctx: ServerContext, w: BootstrapWrite): Promise<KubeObject | undefined> {
  const served = ctx.registry.lookup(RBAC_GROUP, 'v1', PLURAL[w.kind]);
  if (!served) return undefined;
  const namespace = w.object.metadata.namespace ?? '';
  const name = w.object.metadata.name;
  const hook = managedFieldsHook(ctx, served, MANAGER(), '');
  if (w.operation === 'update') {
    const next = cloneObject(w.object) as unknown as KubeObject;
    served.definition.strategy.default?.(next, strategyContext(ctx, served, '', false));
    await updateObject(ctx, served, namespace, name, { allowCreate: false, transform: async () => cloneObject(next) }, { dryRun: false, subresource: '', beforeValidate: hook });
    return undefined;
  }
  if (w.operation === 'recreate') {
    try {
      await deleteObject(ctx, served, namespace, name, { dryRun: false });
    } catch (err) {
      if (!(isStatusError(err) && err.code === 404)) throw err;
    }
  }
  if (namespace) await ensureNamespace(ctx, namespace);
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, ...metadata } = w.object.metadata as Record<string, unknown>;
  const obj = { ...cloneObject(w.object), metadata } as unknown as KubeObject;
  served.definition.strategy.default?.(obj, strategyContext(ctx, served, '', false));
  return createObject(ctx, served, obj, { dryRun: false, subresource: '', beforeValidate: hook });
}

/** What the first fresh start of this process stored, in write order. */
interface FirstStart {
  readonly keys: readonly string[];
  readonly namespaces: readonly string[];
  readonly objects: readonly KubeObject[];
}
let firstStart: FirstStart | undefined;

function writeKey(ctx: ServerContext, w: BootstrapWrite): string | undefined {
  const served = ctx.registry.lookup(RBAC_GROUP, 'v1', PLURAL[w.kind]);
  return served ? keyFor(served, w.object.metadata.namespace ?? '', w.object.metadata.name) : undefined;
}

/** The same objects as the first fresh start, with this cluster's uids and times, in one batch. */
async function replayFirstStart(ctx: ServerContext, snapshot: FirstStart): Promise<boolean> {
  for (const ns of snapshot.namespaces) await ensureNamespace(ctx, ns);
  const now = rfc3339(ctx.clock.now());
  const ops: BatchOp[] = snapshot.objects.map((stored, i) => {
    const obj = cloneObject(stored);
    const meta = obj.metadata as Record<string, unknown> & { managedFields?: { time?: string }[] };
    meta.uid = crypto.randomUUID();
    meta.creationTimestamp = now;
    for (const mf of meta.managedFields ?? []) mf.time = now;
    delete meta.resourceVersion;
    return { op: 'create', key: snapshot.keys[i]!, value: encodeForStorage(obj, false) };
  });
  try {
    await ctx.store.batch(ops);
    return true;
  } catch {
    // Someone wrote meanwhile: reconcile object by object.
    return false;
  }
}

/**
 * Brings the stored policy up to date. A write that loses a race (another
 * writer was quicker) is planned again; other failures go to `log`.
 */
export async function reconcileBootstrapPolicy(ctx: ServerContext, access: AccessControl, log: (message: string) => void): Promise<void> {
  await access.ready;
  const asApiserver: ServerContext = { ...ctx, user: APISERVER_USER };
  const policy = bootstrapPolicy();
  for (let attempt = 0; attempt < 5; attempt++) {
    const { writes } = planBootstrapReconcile(access.rbacSource, policy);
    if (writes.length === 0) return;
    const fresh = attempt === 0 && access.rbacSource.listClusterRoles().length === 0 && writes.every((w) => w.operation === 'create');
    const keys = fresh ? writes.map((w) => writeKey(ctx, w) ?? '') : [];
    if (fresh && firstStart && firstStart.keys.length === keys.length && firstStart.keys.every((k, i) => k === keys[i])) {
      if (await replayFirstStart(ctx, firstStart)) return;
      continue;
    }
    let conflicts = 0;
    let failures = 0;
    const stored: KubeObject[] = [];
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i]!;
      try {
        const obj = await write(asApiserver, w);
        if (obj) stored.push(obj);
      } catch (err) {
        if (isStatusError(err) && err.code === 409) conflicts++;
        else {
          failures++;
          log(`unable to reconcile ${w.kind} ${w.object.metadata.namespace ? `${w.object.metadata.namespace}/` : ''}${w.object.metadata.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (i % 16 === 15) await yieldToRequests();
    }
    if (fresh && conflicts === 0 && failures === 0 && stored.length === writes.length) {
      const namespaces = [...new Set(writes.map((w) => w.object.metadata.namespace).filter((n): n is string => !!n))];
      firstStart = { keys, namespaces, objects: stored.map((o) => cloneObject(o)) };
    }
    if (conflicts === 0) return;
  }
}
