// Tutorial (a): two field managers and one ConfigMap — sharing a field,
// conflicting over it, forcing, handing a field over, and removing one.

import { ownersOfField, queryOf, type TutorialContext } from '../context';
import { fail, pass, type Tutorial } from '../model';

const PATH = '/api/v1/namespaces/default/configmaps/ssa-demo';

function manifest(data: Record<string, string>): string {
  const lines = Object.entries(data).map(([k, v]) => `  ${k}: ${v}`);
  return ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: ssa-demo', '  namespace: default', ...(lines.length ? ['data:', ...lines] : []), ''].join('\n');
}

async function demo(ctx: TutorialContext) {
  const object = await ctx.get(PATH);
  if (!object) return { object: null, data: {} as Record<string, string> };
  return { object, data: ((object as { data?: Record<string, string> }).data ?? {}) as Record<string, string> };
}

const describeOwners = (owners: string[]) => (owners.length ? owners.join(' and ') : 'nobody');

export const serverSideApply: Tutorial = {
  id: 'server-side-apply',
  title: 'Server-side apply: two managers, one object',
  summary: 'Share a field, run into a conflict, force it, hand a field over and remove one — and watch managedFields record who owns what.',
  steps: [
    {
      id: 'first-apply',
      title: 'Apply as a first manager',
      body: [
        'With server-side apply a client sends the fields it has an opinion about, and the server remembers that this client — its field manager — owns them. The record is `metadata.managedFields`.',
        'Open the editor: it holds a ConfigMap `ssa-demo` with `color` and `size`, and the field manager is set to `tool-a`. Press Apply.',
      ],
      actions: [{ label: 'Open in the editor as tool-a', run: async (ctx) => ctx.openEditor(manifest({ color: 'blue', size: 'small' }), 'tool-a') }],
      checks: 'ssa-demo exists and tool-a owns .data.color and .data.size.',
      async check(ctx) {
        const { object } = await demo(ctx);
        if (!object) return fail('There is no ConfigMap ssa-demo in default yet.');
        const color = ownersOfField(object, '.data.color');
        const size = ownersOfField(object, '.data.size');
        return color.includes('tool-a') && size.includes('tool-a') ? pass('tool-a owns .data.color and .data.size.') : fail(`.data.color is owned by ${describeOwners(color)}, .data.size by ${describeOwners(size)}.`);
      },
    },
    {
      id: 'share',
      title: 'Share a field',
      body: [
        'A second manager, `tool-b`, applies the same value for `color`. Agreeing is not a conflict: both now own the field.',
        'Apply the manifest as `tool-b`, then look at the managed-fields view: `color` carries two owners.',
      ],
      actions: [
        { label: 'Open in the editor as tool-b', run: async (ctx) => ctx.openEditor(manifest({ color: 'blue' }), 'tool-b') },
        { label: 'See the owners', run: async (ctx) => ctx.openManagedFields(PATH) },
      ],
      checks: '.data.color is owned by both tool-a and tool-b.',
      async check(ctx) {
        const { object } = await demo(ctx);
        if (!object) return fail('ssa-demo is gone: start again from the first step.');
        const owners = ownersOfField(object, '.data.color');
        return owners.includes('tool-a') && owners.includes('tool-b') ? pass('tool-a and tool-b both own .data.color.') : fail(`.data.color is owned by ${describeOwners(owners)}.`);
      },
    },
    {
      id: 'conflict',
      title: 'Disagree: a conflict',
      body: [
        'Now `tool-b` wants `color: green`. `tool-a` still owns `color` with another value, so the server refuses the apply with 409 Conflict and names the field and its other owner. Nothing is written.',
        'Apply the manifest as `tool-b` and read the conflict the editor shows at the field.',
      ],
      actions: [{ label: 'Open in the editor as tool-b', run: async (ctx) => ctx.openEditor(manifest({ color: 'green' }), 'tool-b') }],
      checks: 'the server answered an apply of ssa-demo by tool-b with 409, and color is still blue.',
      async check(ctx) {
        const records = await ctx.audit();
        const refused = records.find((r) => r.event.verb === 'patch' && r.event.objectRef?.name === 'ssa-demo' && queryOf(r).get('fieldManager') === 'tool-b' && r.event.responseStatus?.code === 409);
        const { data } = await demo(ctx);
        if (!refused) return fail('No apply of ssa-demo by tool-b was refused with 409 yet.');
        return data.color === 'blue' ? pass('The apply was refused with 409 Conflict; color is still blue.') : fail(`color is ${data.color ?? 'gone'}: the conflict should have left it blue.`);
      },
    },
    {
      id: 'force',
      title: 'Force it',
      body: [
        'A manager that is sure can force: the server applies the value and takes the field from the other owners. Tick Force conflicts in the editor and apply again as `tool-b`.',
        'Afterwards `tool-a` no longer owns `color` — were it to apply again with blue, it would be the one in conflict.',
      ],
      actions: [{ label: 'Open in the editor as tool-b', run: async (ctx) => ctx.openEditor(manifest({ color: 'green' }), 'tool-b') }],
      checks: 'color is green and owned by tool-b alone.',
      async check(ctx) {
        const { object, data } = await demo(ctx);
        if (!object) return fail('ssa-demo is gone: start again from the first step.');
        const owners = ownersOfField(object, '.data.color');
        return data.color === 'green' && owners.length === 1 && owners[0] === 'tool-b' ? pass('color is green and only tool-b owns it.') : fail(`color is ${data.color ?? 'gone'}, owned by ${describeOwners(owners)}.`);
      },
    },
    {
      id: 'hand-over',
      title: 'Hand a field over',
      body: [
        '`size` belongs to `tool-a` alone. To give it to `tool-b` without the value ever changing: first `tool-b` applies `size` with the same value (now both own it), then `tool-a` applies without `size`.',
        'A field one manager drops and another still owns stays as it is — only its ownership moves. Do both applies, in that order.',
      ],
      actions: [
        { label: '1. As tool-b, with size', run: async (ctx) => ctx.openEditor(manifest({ color: 'green', size: 'small' }), 'tool-b') },
        { label: '2. As tool-a, without size', run: async (ctx) => ctx.openEditor(manifest({}), 'tool-a') },
      ],
      checks: 'size is still small, tool-b owns it and tool-a owns nothing under data.',
      async check(ctx) {
        const { object, data } = await demo(ctx);
        if (!object) return fail('ssa-demo is gone: start again from the first step.');
        const owners = ownersOfField(object, '.data.size');
        const aStill = ownersOfField(object, '.data.color').includes('tool-a') || owners.includes('tool-a');
        if (data.size !== 'small') return fail(`size is ${data.size ?? 'gone'}: it should have stayed small.`);
        if (aStill) return fail(`tool-a still owns a data field (size is owned by ${describeOwners(owners)}).`);
        return owners.includes('tool-b') ? pass('size stayed small and is now owned by tool-b only.') : fail(`size is owned by ${describeOwners(owners)}.`);
      },
    },
    {
      id: 'remove',
      title: 'Remove a field',
      body: [
        'When the only owner of a field applies without it, the server removes the field from the object: that is how apply deletes.',
        'Apply as `tool-b` with `color` only.',
      ],
      actions: [
        { label: 'Open in the editor as tool-b', run: async (ctx) => ctx.openEditor(manifest({ color: 'green' }), 'tool-b') },
        { label: 'See the owners', run: async (ctx) => ctx.openManagedFields(PATH) },
      ],
      checks: 'size is gone from ssa-demo and color is still there.',
      async check(ctx) {
        const { object, data } = await demo(ctx);
        if (!object) return fail('ssa-demo is gone altogether: only size should have gone.');
        return data.size === undefined && data.color !== undefined ? pass('size was removed; color stays.') : fail(`data is now ${JSON.stringify(data)}.`);
      },
    },
  ],
};
