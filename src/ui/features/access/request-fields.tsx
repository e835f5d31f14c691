// The fields that describe a request for authorization: verb, and either a
// resource (API group, resource, subresource, namespace, name) or a
// non-resource path. Shared by "Check a request" and "Who can".

import type { RequestAttributes } from './rbac-explain';

export interface RequestDraft {
  verb: string;
  kind: 'resource' | 'path';
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'bind', 'escalate', 'use', 'approve', 'sign'];

export const EMPTY_DRAFT: RequestDraft = { verb: 'list', kind: 'resource', group: '', resource: 'pods', subresource: '', namespace: 'default', name: '', path: '/healthz' };

export function attributesOf(draft: RequestDraft, user: string, groups: readonly string[]): RequestAttributes {
  return draft.kind === 'path'
    ? { user, groups, verb: draft.verb.trim(), path: draft.path.trim() }
    : {
        user,
        groups,
        verb: draft.verb.trim(),
        resource: { group: draft.group.trim(), resource: draft.resource.trim(), subresource: draft.subresource.trim(), namespace: draft.namespace.trim(), name: draft.name.trim() },
      };
}

export function RequestFields({ draft, onChange, idPrefix }: { draft: RequestDraft; onChange(draft: RequestDraft): void; idPrefix: string }) {
  const set = (patch: Partial<RequestDraft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset className="access-fields">
      <legend>Request</legend>
      <div className="row">
        <label>
          Verb
          <input list={`${idPrefix}-verbs`} value={draft.verb} onChange={(e) => set({ verb: e.target.value })} size={12} />
          <datalist id={`${idPrefix}-verbs`}>
            {VERBS.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        </label>
        <label>
          On
          <select value={draft.kind} onChange={(e) => set({ kind: e.target.value as RequestDraft['kind'] })}>
            <option value="resource">a resource</option>
            <option value="path">a path (non-resource URL)</option>
          </select>
        </label>
      </div>
      {draft.kind === 'resource' ? (
        <div className="row">
          <label>
            API group
            <input value={draft.group} onChange={(e) => set({ group: e.target.value })} placeholder='"" is the core group' size={16} />
          </label>
          <label>
            Resource
            <input value={draft.resource} onChange={(e) => set({ resource: e.target.value })} size={14} />
          </label>
          <label>
            Subresource
            <input value={draft.subresource} onChange={(e) => set({ subresource: e.target.value })} size={8} />
          </label>
          <label>
            Namespace
            <input value={draft.namespace} onChange={(e) => set({ namespace: e.target.value })} placeholder="(cluster scope)" size={12} />
          </label>
          <label>
            Name
            <input value={draft.name} onChange={(e) => set({ name: e.target.value })} placeholder="(any)" size={12} />
          </label>
        </div>
      ) : (
        <div className="row">
          <label className="grow">
            Path
            <input value={draft.path} onChange={(e) => set({ path: e.target.value })} />
          </label>
        </div>
      )}
    </fieldset>
  );
}
