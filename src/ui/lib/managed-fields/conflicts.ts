// A server-side apply refused with 409: the causes of type
// FieldManagerConflict name each field and the manager owning it
// (`conflict with "alice"` or `conflict with "kubectl-edit" using v1`).

import type { Status } from '../api/types';
import { parsePathString, type PathElement } from './field-path';

export interface FieldConflict {
  /** The path as the server wrote it, e.g. `.spec.replicas`. */
  readonly field: string;
  readonly elements: readonly PathElement[];
  readonly manager: string;
  /** The owner's apiVersion, when the server said ("using apps/v1"). */
  readonly apiVersion: string;
  readonly message: string;
}

export interface ApplyConflict {
  /** API path of the object the apply was for. */
  readonly objectPath: string;
  /** The YAML document that was applied. */
  readonly manifest: string;
  readonly fieldManager: string;
  /** Where the manifest came from: the editor's buffer (at docIndex) or the managed-fields view. */
  readonly source: 'editor' | 'managed-fields';
  readonly docIndex: number;
  readonly message: string;
  readonly conflicts: readonly FieldConflict[];
}

const CAUSE_MESSAGE = /^conflict with "((?:[^"\\]|\\.)*)"(?: using (\S+))?/;

export function conflictsFromStatus(status: Status | null): FieldConflict[] {
  if (!status || status.code !== 409) return [];
  const out: FieldConflict[] = [];
  for (const cause of status.details?.causes ?? []) {
    if (cause.reason !== 'FieldManagerConflict' || !cause.field) continue;
    const match = CAUSE_MESSAGE.exec(cause.message ?? '');
    let elements: PathElement[] = [];
    try {
      elements = parsePathString(cause.field);
    } catch {
      // keep the conflict, without a resolvable path
    }
    out.push({
      field: cause.field,
      elements,
      manager: match ? JSON.parse(`"${match[1]}"`) as string : '',
      apiVersion: match?.[2] ?? '',
      message: cause.message ?? '',
    });
  }
  return out;
}
