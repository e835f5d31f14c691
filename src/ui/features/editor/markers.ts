// Server answers placed where they belong in the buffer: each cause of a 422
// (field paths like spec.containers[0].image), each field of an apply
// conflict (.data.key, [name="c"]…) and each field a message names (an
// apply's typed error, strict decoding, a Warning) becomes a marker on that
// field; only what names no field goes on the document's first line.

import { conflictsFromStatus } from '../../lib/managed-fields/conflicts';
import { resolvePath } from '../../lib/managed-fields/field-path';
import { parseErrorField, rangeOfPath, type BufferDocument } from '../../lib/yaml/yaml-text';
import { fieldsInMessage } from './message-fields';
import type { DocumentResult } from './operations';

export interface BufferMarker {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

export function markersFor(results: readonly DocumentResult[], docs: readonly BufferDocument[]): BufferMarker[] {
  const markers: BufferMarker[] = [];
  for (const result of results) {
    const doc = docs[result.docIndex];
    if (!doc) continue;
    const whole = { start: doc.bodyStart, end: Math.min(doc.end, doc.bodyStart + 200) };
    if (result.errorText) markers.push({ ...firstLine(doc), message: result.errorText, severity: 'error' });
    const status = result.error;
    if (status?.code === 409 && status.reason === 'Conflict') {
      for (const conflict of conflictsFromStatus(status)) {
        const path = resolvePath(doc.value, conflict.elements);
        const range = path ? rangeOfPath(doc.document, path) : null;
        markers.push({
          ...(range ?? whole),
          message: `Apply conflict: ${conflict.field} is owned by "${conflict.manager}"${conflict.apiVersion ? ` (${conflict.apiVersion})` : ''}. Force, drop the field, or adopt the live value.`,
          severity: 'error',
        });
      }
      continue;
    }
    if (status) {
      const causes = status.details?.causes ?? [];
      let placed = false;
      for (const cause of causes) {
        if (!cause.field) continue;
        const range = rangeOfPath(doc.document, parseErrorField(cause.field));
        markers.push({ ...(range ?? whole), message: `${cause.field}: ${cause.message ?? cause.reason ?? ''}`, severity: 'error' });
        placed = true;
      }
      if (!placed) markers.push(...atFieldsOf(status.message ?? `HTTP ${status.code}`, doc, 'error'));
    }
    for (const warning of result.warnings) markers.push(...atFieldsOf(`Warning: ${warning}`, doc, 'warning'));
  }
  return markers;
}

/** A message at each field it names (on the first line when it names none it can find). */
function atFieldsOf(message: string, doc: BufferDocument, severity: BufferMarker['severity']): BufferMarker[] {
  const ranges = fieldsInMessage(message, doc.value).flatMap((field) => rangeOfPath(doc.document, field.path) ?? []);
  if (!ranges.length) return [{ ...firstLine(doc), message, severity }];
  return ranges.map((range) => ({ start: range.start, end: range.end, message, severity }));
}

function firstLine(doc: BufferDocument): { start: number; end: number } {
  return { start: doc.bodyStart, end: doc.bodyStart + 1 };
}
