// What the editor's buttons do to each document of the buffer: server-side
// apply (PATCH application/apply-patch+yaml), create (POST), replace (PUT),
// each optionally as a dry run; and reading the live object for the diff.

import { apiFetch, errorFrom, ApiError } from '../../lib/api/client';
import type { DiscoveredResource } from '../../lib/api/discovery';
import { locateObject, type ObjectLocation } from '../../lib/api/resource-paths';
import type { KubeObject, Status } from '../../lib/api/types';
import { parseWarnings } from '../../lib/api/warnings';
import type { BufferDocument } from '../../lib/yaml/yaml-text';

export type Operation = 'apply' | 'create' | 'replace';

export interface WriteOptions {
  readonly operation: Operation;
  readonly fieldManager: string;
  readonly force: boolean;
  readonly dryRun: boolean;
  readonly fieldValidation: string;
  readonly defaultNamespace: string;
}

export interface DocumentResult {
  readonly docIndex: number;
  /** "ConfigMap default/example" */
  readonly title: string;
  readonly location: ObjectLocation | null;
  readonly status: number;
  /** What happened, as kubectl would say it: created, configured, unchanged… */
  readonly summary: string;
  readonly object: KubeObject | null;
  readonly error: Status | null;
  readonly errorText: string;
  readonly warnings: readonly string[];
  /** The document's own text (for conflict resolution). */
  readonly manifest: string;
}

export function documentTitle(value: unknown, location: ObjectLocation | null): string {
  const object = (value ?? {}) as KubeObject;
  const kind = object.kind ?? '?';
  const name = object.metadata?.name ?? object.metadata?.generateName ?? '(no name)';
  return location?.namespace ? `${kind} ${location.namespace}/${name}` : `${kind} ${name}`;
}

function warningsOf(response: Response): string[] {
  return parseWarnings(response.headers.get('warning')).map((w) => w.text);
}

export async function writeDocument(
  resources: readonly DiscoveredResource[],
  doc: BufferDocument,
  bufferText: string,
  options: WriteOptions,
): Promise<DocumentResult> {
  const manifest = bufferText.slice(doc.bodyStart, doc.end);
  const base = { docIndex: doc.index, manifest, warnings: [] as string[] };
  if (doc.errors.length) {
    return { ...base, title: `Document ${doc.index + 1}`, location: null, status: 0, summary: 'not valid YAML', object: null, error: null, errorText: doc.errors.join('\n') };
  }
  let location: ObjectLocation;
  try {
    location = locateObject(resources, doc.value as KubeObject, options.defaultNamespace);
  } catch (error) {
    return { ...base, title: documentTitle(doc.value, null), location: null, status: 0, summary: 'not sent', object: null, error: null, errorText: (error as Error).message };
  }
  const title = documentTitle(doc.value, location);
  const query = {
    fieldManager: options.fieldManager || undefined,
    dryRun: options.dryRun ? 'All' : undefined,
    fieldValidation: options.fieldValidation || undefined,
    force: options.operation === 'apply' && options.force ? 'true' : undefined,
  };
  let response: Response;
  if (options.operation === 'apply') {
    if (!location.objectPath) return { ...base, title, location, status: 0, summary: 'not sent', object: null, error: null, errorText: 'server-side apply needs metadata.name' };
    response = await apiFetch(location.objectPath, { method: 'PATCH', query, headers: { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' }, body: manifest });
  } else if (options.operation === 'create') {
    response = await apiFetch(location.collectionPath, { method: 'POST', query, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(doc.value) });
  } else {
    if (!location.objectPath) return { ...base, title, location, status: 0, summary: 'not sent', object: null, error: null, errorText: 'replace needs metadata.name' };
    response = await apiFetch(location.objectPath, { method: 'PUT', query, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(doc.value) });
  }
  const warnings = warningsOf(response);
  if (!response.ok) {
    const error = await errorFrom(response);
    return { ...base, warnings, title, location, status: response.status, summary: error.statusBody?.reason || `HTTP ${response.status}`, object: null, error: error.statusBody, errorText: error.statusBody ? '' : error.responseText };
  }
  const object = (await response.json()) as KubeObject;
  const verb = options.operation === 'create' || response.status === 201 ? 'created' : options.operation === 'replace' ? 'replaced' : 'configured';
  return { ...base, warnings, title, location, status: response.status, summary: `${verb}${options.dryRun ? ' (server dry run)' : ''}`, object, error: null, errorText: '' };
}

/** The live object, or null when it does not exist. */
export async function readLive(location: ObjectLocation): Promise<KubeObject | null> {
  if (!location.objectPath) return null;
  const response = await apiFetch(location.objectPath, { headers: { accept: 'application/json' } });
  if (response.status === 404) return null;
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as KubeObject;
}

export { ApiError };
