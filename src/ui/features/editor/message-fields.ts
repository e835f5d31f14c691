// The fields a server message names, for messages that carry no `causes`
// with a field: server-side apply's typed errors name structured-merge-diff
// paths (`failed to create typed patch object (…): .spec.template.spec.
// containers[name="nginx"].bogusField: field not declared in schema`, or
// several under "errors:"), and strict decoding names JSON field paths
// (`strict decoding error: unknown field "spec.containers[0].bogusField"`,
// also the text of fieldValidation=Warn's Warning headers). Each becomes a
// path into the document, so its marker sits on that field's line.

import { parsePathString, resolvePath, type ConcretePath } from '../../lib/managed-fields/field-path';
import { parseErrorField } from '../../lib/yaml/yaml-text';

export interface MessageField {
  /** The path as the message wrote it. */
  readonly text: string;
  /** The path into the document's value (as far as it resolves). */
  readonly path: ConcretePath;
}

/** A structured-merge-diff path (starting with '.') followed by ": " — lazily, so the first ": " after it ends it. */
const SMD_PATH = /(?:^|\s)(\.[^\s]*?)(?=: )/g;
/** `unknown field "…"` and `duplicate field "…"` of strict decoding. */
const DECODING_FIELD = /(?:unknown|duplicate) field "([^"]+)"/g;

/** The longest resolvable path of smd path elements (a list item the document lacks stops it). */
function resolvePrefix(value: unknown, text: string): ConcretePath | null {
  let elements;
  try {
    elements = parsePathString(text);
  } catch {
    return null;
  }
  for (let length = elements.length; length > 0; length--) {
    const path = resolvePath(value, elements.slice(0, length));
    if (path) return path;
  }
  return null;
}

export function fieldsInMessage(message: string, value: unknown): MessageField[] {
  const out: MessageField[] = [];
  for (const match of message.matchAll(SMD_PATH)) {
    const path = resolvePrefix(value, match[1]!);
    if (path && path.length) out.push({ text: match[1]!, path });
  }
  for (const match of message.matchAll(DECODING_FIELD)) {
    const path = parseErrorField(match[1]!);
    if (path.length) out.push({ text: match[1]!, path });
  }
  return out;
}
