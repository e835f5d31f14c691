// Tutorial (d): deletion — a finalizer holding an object in Terminating, a
// namespace deleted with its contents, and garbage collection of dependents
// under the three propagation policies.

import { queryOf, type TutorialContext } from '../context';
import { fail, pass, type Tutorial } from '../model';

const NS = 'deletion-demo';
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
const ACCEPT = [{ name: 'Accept', value: 'application/json' }];

const HELD = `apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  namespace: ${NS}
  finalizers:
  - tutorial.kubetab.dev/hold
data:
  note: kept until the finalizer is removed
`;

async function prepare(ctx: TutorialContext): Promise<void> {
  await ctx.ensure('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
}

/** An owner ConfigMap and a dependent pointing at it by uid (as a controller would write it). */
async function ownerAndDependent(ctx: TutorialContext, suffix: string): Promise<string> {
  await prepare(ctx);
  const owner = `owner-${suffix}`;
  const child = `child-${suffix}`;
  await ctx.ensure(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: owner, namespace: NS } });
  const created = await ctx.get(`${CONFIGMAPS}/${owner}`);
  if (!created?.metadata?.uid) throw new Error(`could not read ${owner}`);
  await ctx.ensure(CONFIGMAPS, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: child, namespace: NS, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: created.metadata.uid, blockOwnerDeletion: true }] },
  });
  return `${owner} and its dependent ${child} are there.`;
}

function deleteStep(policy: 'Background' | 'Foreground' | 'Orphan', suffix: string, body: string[], expect: string) {
  const owner = `owner-${suffix}`;
  const child = `child-${suffix}`;
  return {
    id: `gc-${suffix}`,
    title: `Garbage collection: ${policy}`,
    body,
    actions: [
      { label: `Create ${owner} and ${child}`, run: (ctx: TutorialContext) => ownerAndDependent(ctx, suffix) },
      { label: `Open the delete of ${owner}`, run: async (ctx: TutorialContext) => ctx.openConsole({ method: 'DELETE', path: `${CONFIGMAPS}/${owner}`, query: { propagationPolicy: policy }, headers: ACCEPT }) },
    ],
    checks: expect,
    async check(ctx: TutorialContext) {
      const deleted = (await ctx.audit()).some((r) => r.event.verb === 'delete' && r.event.objectRef?.name === owner && queryOf(r).get('propagationPolicy') === policy && (r.event.responseStatus?.code ?? 0) < 300);
      if (!deleted) return fail(`${owner} was not deleted with propagationPolicy=${policy} yet.`);
      const ownerLeft = await ctx.get(`${CONFIGMAPS}/${owner}`);
      const childLeft = await ctx.get(`${CONFIGMAPS}/${child}`);
      if (policy === 'Orphan') {
        if (ownerLeft) return fail(`${owner} is still there.`);
        if (!childLeft) return fail(`${child} was deleted: an orphan should have stayed.`);
        return childLeft.metadata?.ownerReferences?.length ? fail(`${child} still points at its owner (the collector has not orphaned it yet).`) : pass(`${owner} is gone; ${child} stays, without its ownerReference.`);
      }
      if (ownerLeft || childLeft) return fail(`Still there: ${[ownerLeft && owner, childLeft && child].filter(Boolean).join(', ')} (the collector may need a moment).`);
      return pass(`${owner} and ${child} are both gone.`);
    },
  };
}

export const deletion: Tutorial = {
  id: 'deletion',
  title: 'Deletion: finalizers, namespaces, garbage collection',
  summary: 'An object held in Terminating by a finalizer, a namespace deleted with everything in it, and dependents collected under Background, Foreground and Orphan.',
  steps: [
    {
      id: 'finalizer',
      title: 'A finalizer holds the object',
      body: [
        'A delete of an object with finalizers does not remove it: the server sets `metadata.deletionTimestamp` and keeps the object until every finalizer is gone. Whoever owns a finalizer does its clean-up, then removes it.',
        'Apply the ConfigMap `held` (it has a finalizer), then delete it from the console: the answer is the object, now with a deletionTimestamp.',
      ],
      actions: [
        { label: 'Open held in the editor', run: async (ctx) => (await prepare(ctx), ctx.openEditor(HELD, 'kubetab')) },
        { label: 'Open the delete in the console', run: async (ctx) => ctx.openConsole({ method: 'DELETE', path: `${CONFIGMAPS}/held`, query: {}, headers: ACCEPT }) },
      ],
      checks: 'held is being deleted (deletionTimestamp set) and its finalizer is still there.',
      async check(ctx) {
        const held = await ctx.get(`${CONFIGMAPS}/held`);
        if (!held) return fail('There is no ConfigMap held (apply it first; if it was deleted already, apply it again).');
        if (!held.metadata?.deletionTimestamp) return fail('held exists but nobody asked to delete it yet.');
        return held.metadata.finalizers?.length ? pass(`held is Terminating since ${held.metadata.deletionTimestamp}, waiting for its finalizer.`) : fail('held has no finalizer left.');
      },
    },
    {
      id: 'release',
      title: 'Remove the finalizer',
      body: [
        'Remove the finalizer with a merge patch (`"finalizers": null`). With none left, the server finishes the deletion at once.',
      ],
      actions: [
        {
          label: 'Open the patch in the console',
          run: async (ctx) =>
            ctx.openConsole({
              method: 'PATCH',
              path: `${CONFIGMAPS}/held`,
              query: {},
              headers: [...ACCEPT, { name: 'Content-Type', value: 'application/merge-patch+json' }],
              body: JSON.stringify({ metadata: { finalizers: null } }, null, 2),
            }),
        },
      ],
      checks: 'held is gone, after having been held.',
      async check(ctx) {
        const records = await ctx.audit();
        const wasDeleted = records.some((r) => r.event.verb === 'delete' && r.event.objectRef?.name === 'held' && r.event.objectRef.namespace === NS);
        if (!wasDeleted) return fail('held was never deleted: do the previous step first.');
        return (await ctx.get(`${CONFIGMAPS}/held`)) ? fail('held is still there.') : pass('held is gone.');
      },
    },
    {
      id: 'namespace',
      title: 'Delete a namespace',
      body: [
        'Deleting a namespace marks it Terminating; the namespace controller then deletes everything in it, and the namespace goes last. Meanwhile nothing new can be created in it.',
        'Create the namespace `doomed` with a ConfigMap, then delete the namespace from the console and read it again a few times: Terminating, then 404.',
      ],
      actions: [
        {
          label: 'Create doomed with a ConfigMap',
          run: async (ctx) => {
            await ctx.ensure('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
            await ctx.ensure('/api/v1/namespaces/doomed/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inside' } });
            return 'Namespace doomed with ConfigMap inside.';
          },
        },
        { label: 'Open the delete in the console', run: async (ctx) => ctx.openConsole({ method: 'DELETE', path: '/api/v1/namespaces/doomed', query: {}, headers: ACCEPT }) },
      ],
      checks: 'namespace doomed was deleted and is gone, its ConfigMap with it.',
      async check(ctx) {
        const deleted = (await ctx.audit()).some((r) => r.event.verb === 'delete' && r.event.objectRef?.resource === 'namespaces' && r.event.objectRef.name === 'doomed');
        if (!deleted) return fail('Nobody deleted namespace doomed yet.');
        const ns = await ctx.get('/api/v1/namespaces/doomed');
        if (ns) return fail(`doomed is ${(ns as { status?: { phase?: string } }).status?.phase ?? 'still there'}: the controller is emptying it.`);
        return pass('doomed and everything in it are gone.');
      },
    },
    deleteStep(
      'Background',
      'bg',
      [
        'Objects point at their owners with `metadata.ownerReferences`. When an owner goes, the garbage collector deletes its dependents.',
        'With `propagationPolicy=Background` (the default for most kinds) the owner is deleted at once and the collector removes the dependents afterwards.',
      ],
      'owner-bg was deleted with Background, and owner-bg and child-bg are both gone.',
    ),
    deleteStep(
      'Foreground',
      'fg',
      [
        'With `propagationPolicy=Foreground` the owner stays, Terminating with the `foregroundDeletion` finalizer, until the collector has deleted every dependent that blocks it (`blockOwnerDeletion: true`); then the owner goes too.',
        'Delete and read the owner at once: you may catch it with its deletionTimestamp and finalizer.',
      ],
      'owner-fg was deleted with Foreground, and both are gone.',
    ),
    deleteStep(
      'Orphan',
      'or',
      [
        'With `propagationPolicy=Orphan` the dependents stay: the collector removes the ownerReference that pointed at the deleted owner, and they live on by themselves.',
      ],
      'owner-or was deleted with Orphan; child-or stays without its ownerReference.',
    ),
  ],
};
