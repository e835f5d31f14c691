// The request being composed: method, path (with completion), query
// parameters, headers (presets, impersonation), body.

import { useId } from 'react';
import { useAppStore } from '../../lib/store';
import type { ConsoleRequest } from '../../lib/store/console-slice';
import { BodyEditor } from './body-editor';
import { usePathSuggestions, type ListedNames } from './path-suggestions';
import { automaticContentType, effectiveContentType } from './wire-request';
import { ACCEPT_PRESETS, CONTENT_TYPE_PRESETS, hasBody, METHODS, QUERY_GROUPS, type QueryField } from './query-fields';

interface Props {
  readonly request: ConsoleRequest;
  readonly namespace: string;
  /** The names of the last list received, for the path's completion. */
  readonly listed?: ListedNames;
  onChange(update: Partial<ConsoleRequest>): void;
}

export function RequestEditor({ request, namespace, listed, onChange }: Props) {
  const listId = useId();
  const suggestions = usePathSuggestions(request.path, namespace, listed);
  const setQuery = (name: string, value: string) => onChange({ query: { ...request.query, [name]: value } });
  return (
    <div className="stack">
      <div className="row">
        <label>
          Method
          <select value={request.method} onChange={(e) => onChange({ method: e.target.value })}>
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="grow">
          Path
          <input
            className="mono"
            value={request.path}
            list={listId}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => onChange({ path: e.target.value })}
          />
          <datalist id={listId}>
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </label>
      </div>
      <details className="console__section" open={Object.values(request.query).some(Boolean) || undefined}>
        <summary>Query parameters{Object.values(request.query).filter(Boolean).length ? ` (${Object.values(request.query).filter(Boolean).length} set)` : ''}</summary>
        <div className="console__query">
          {QUERY_GROUPS.map((group) => (
            <fieldset key={group.title}>
              <legend>{group.title}</legend>
              {group.fields.map((field) => (
                <QueryInput key={field.name} field={field} value={request.query[field.name] ?? ''} onChange={(v) => setQuery(field.name, v)} />
              ))}
            </fieldset>
          ))}
        </div>
      </details>
      <details className="console__section">
        <summary>Headers and impersonation</summary>
        <HeadersEditor request={request} onChange={onChange} />
      </details>
      {hasBody(request.method) && (
        <BodyEditor
          value={request.body}
          method={request.method}
          contentType={effectiveContentType(request)}
          chosenContentType={getHeader(request.headers, 'Content-Type')}
          automaticContentType={automaticContentType(request.method, request.body)}
          onChange={(body) => onChange({ body })}
          onChooseContentType={(type) => onChange({ headers: setHeader(request.headers, 'Content-Type', type) })}
        />
      )}
    </div>
  );
}

function QueryInput({ field, value, onChange }: { field: QueryField; value: string; onChange(value: string): void }) {
  if (field.kind === 'flag')
    return (
      <label className="check">
        <input type="checkbox" checked={value === field.value} onChange={(e) => onChange(e.target.checked ? field.value : '')} />
        {field.name}
      </label>
    );
  if (field.kind === 'choice')
    return (
      <label>
        {field.name}
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o || '(not set)'}
            </option>
          ))}
        </select>
      </label>
    );
  return (
    <label>
      {field.name}
      <input value={value} placeholder={field.placeholder} spellCheck={false} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

type HeaderRow = ConsoleRequest['headers'][number];

function getHeader(rows: readonly HeaderRow[], name: string): string {
  return rows.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? '';
}

function setHeader(rows: readonly HeaderRow[], name: string, value: string): HeaderRow[] {
  const others = rows.filter((h) => h.name.toLowerCase() !== name.toLowerCase());
  return value ? [...others, { name, value }] : others;
}

function HeadersEditor({ request, onChange }: Pick<Props, 'request' | 'onChange'>) {
  const rows = request.headers;
  const update = (next: HeaderRow[]) => onChange({ headers: next });
  const groups = rows.filter((h) => h.name.toLowerCase() === 'impersonate-group').map((h) => h.value);
  const accept = getHeader(rows, 'Accept');
  const contentType = getHeader(rows, 'Content-Type');
  return (
    <div className="stack">
      <div className="row">
        <label>
          Accept
          <select value={ACCEPT_PRESETS.some(([, v]) => v === accept) ? accept : ''} onChange={(e) => update(setHeader(rows, 'Accept', e.target.value))}>
            <option value="">(none or custom)</option>
            {ACCEPT_PRESETS.map(([label, value]) => (
              <option key={value} value={value}>
                {label} — {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Content-Type
          <select
            value={CONTENT_TYPE_PRESETS.some(([, v]) => v === contentType) ? contentType : ''}
            onChange={(e) => update(setHeader(rows, 'Content-Type', e.target.value))}
          >
            <option value="">{contentType ? '(custom)' : hasBody(request.method) ? `(automatic: ${automaticContentType(request.method, request.body)})` : '(none)'}</option>
            {CONTENT_TYPE_PRESETS.map(([label, value]) => (
              <option key={value} value={value}>
                {label} — {value}
              </option>
            ))}
          </select>
        </label>
      </div>
      <IdentityChoice request={request} onChange={onChange} />
      <fieldset>
        <legend>Impersonation</legend>
        <div className="row">
          <label>
            Impersonate user
            <input value={getHeader(rows, 'Impersonate-User')} onChange={(e) => update(setHeader(rows, 'Impersonate-User', e.target.value))} />
          </label>
          <label>
            Impersonate groups (comma-separated)
            <input
              value={groups.join(',')}
              onChange={(e) =>
                update([
                  ...rows.filter((h) => h.name.toLowerCase() !== 'impersonate-group'),
                  ...e.target.value
                    .split(',')
                    .map((g) => g.trim())
                    .filter(Boolean)
                    .map((value) => ({ name: 'Impersonate-Group', value })),
                ])
              }
            />
          </label>
          <label>
            Impersonate UID
            <input value={getHeader(rows, 'Impersonate-Uid')} onChange={(e) => update(setHeader(rows, 'Impersonate-Uid', e.target.value))} />
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>All headers</legend>
        <div className="stack">
          {rows.map((row, i) => (
            <div className="row" key={i}>
              <input aria-label={`Header ${i + 1} name`} value={row.name} onChange={(e) => update(rows.map((r, j) => (j === i ? { ...r, name: e.target.value } : r)))} />
              <input
                aria-label={`Header ${i + 1} value`}
                className="grow mono"
                value={row.value}
                onChange={(e) => update(rows.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
              />
              <button type="button" aria-label={`Remove header ${row.name || i + 1}`} onClick={() => update(rows.filter((_, j) => j !== i))}>
                ✕
              </button>
            </div>
          ))}
          <div>
            <button type="button" onClick={() => update([...rows, { name: '', value: '' }])}>
              Add header
            </button>
          </div>
        </div>
      </fieldset>
    </div>
  );
}

/** Which identity this request is sent as (the header's, or another one). */
function IdentityChoice({ request, onChange }: Pick<Props, 'request' | 'onChange'>) {
  const identities = useAppStore((s) => s.identities);
  const current = useAppStore((s) => s.currentIdentityId);
  const currentLabel = identities.find((i) => i.id === current)?.label ?? current;
  return (
    <label>
      Send as
      <select value={request.identityId ?? ''} onChange={(e) => onChange({ identityId: e.target.value || undefined })}>
        <option value="">Current identity ({currentLabel})</option>
        {identities.map((identity) => (
          <option key={identity.id} value={identity.id}>
            {identity.label}
          </option>
        ))}
      </select>
    </label>
  );
}
