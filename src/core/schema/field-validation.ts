// Server-side field validation (the `fieldValidation` query parameter of
// create, update and patch): unknown and duplicate fields in a request body,
// reported the way kube-apiserver 1.32 reports them.
//
// - Strict: 400 BadRequest, `<Kind> in version "<v>" cannot be handled as a
//   <Kind>: strict decoding error: unknown field "spec.foo", duplicate field
//   "metadata.name"` (runtime.NewStrictDecodingError joined by ", ", wrapped
//   by the handlers' transformDecodeError).
// - Warn (the default): one warning per error text, the request goes on.
// - Ignore: nothing.
//
// Built-in kinds: the errors come from decoding the body into the Go type
// (builtin-decode.ts), in document order. Custom resources: duplicates come
// from decoding into a map (every level), unknown fields from pruning
// (prune.ts: metadata first, then the pruned paths sorted). A YAML body adds
// first the YAML→JSON strict conversion error for duplicate keys.

import { parseDocument, isMap, isScalar, isSeq, LineCounter, type Node as YamlNode } from 'yaml';
import { errors, StatusError } from '../errors/status';
import { decodeBuiltin } from './builtin-decode';
import { astFromValue, parseJsonAst, type JsonAst } from './json-ast';
import type { SchemaNode, SchemaTable } from './types';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** The directive of a request: absent means Warn (the 1.32 default). Other values are refused by option validation. */
export function fieldValidationDirective(value: string | null | undefined): FieldValidation | undefined {
  if (value === null || value === undefined || value === '') return 'Warn';
  return value === 'Ignore' || value === 'Warn' || value === 'Strict' ? value : undefined;
}

/** runtime.strictDecodingError's text. */
export function strictDecodingErrorMessage(strictErrors: readonly string[]): string {
  return `strict decoding error: ${strictErrors.join(', ')}`;
}

/** What the body's apiVersion/kind said, and the kind the handler decodes into (transformDecodeError's inputs). */
export interface DecodeTarget {
  /** The kind named in the body (empty when the body names none). */
  readonly kind: string;
  /** The version part of the body's apiVersion. */
  readonly version: string;
  /** The kind of the object the handler decodes into. */
  readonly intoKind: string;
  /** The raw body, summarized in the message when the body names no kind. */
  readonly body?: string;
}

/** The handlers' transformDecodeError: any decode failure as a 400 BadRequest. */
export function decodeError(target: DecodeTarget, message: string): StatusError {
  if (target.kind) {
    return errors.badRequest(`${target.kind} in version ${JSON.stringify(target.version)} cannot be handled as a ${target.intoKind}: ${message}`);
  }
  return errors.badRequest(`the object provided is unrecognized (must be of type ${target.intoKind}): ${message} (${summarizeData(target.body ?? '', 30)})`);
}

function summarizeData(data: string, maxLength: number): string {
  if (data.length === 0) return '<empty>';
  if (data[0] === '{') return data.length > maxLength ? `${data.slice(0, maxLength)} ...` : data;
  const bytes = new TextEncoder().encode(data).slice(0, maxLength);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return data.length > maxLength ? `${hex} ...` : hex;
}

/**
 * Applies a directive to the strict errors of a decoded body: throws the 400
 * for Strict, returns the warnings (one per error) for Warn, nothing for Ignore.
 */
export function applyFieldValidation(directive: FieldValidation, strictErrors: readonly string[], target: DecodeTarget): string[] {
  if (strictErrors.length === 0 || directive === 'Ignore') return [];
  if (directive === 'Warn') return [...strictErrors];
  throw decodeError(target, strictDecodingErrorMessage(strictErrors));
}

export interface BodyDecodeResult {
  /** The decode error (a Go type error or unmarshaler error): the request fails with decodeError(). */
  readonly error?: string;
  /** Unknown and duplicate field errors, in kube-apiserver's order. */
  readonly strictErrors: readonly string[];
}

/** The syntax tree the decoder walks: the JSON text itself, or a YAML body converted to JSON as kube does (keys sorted). */
function bodyAst(body: string, yaml: boolean, parsed: unknown): JsonAst {
  if (!yaml) return parseJsonAst(body);
  return astFromValue(parsed, true);
}

/**
 * Field problems of a request body for a built-in kind.
 *
 * @param body the request body text (JSON or YAML)
 * @param root the kind's schema (a ref to its root definition)
 * @param parsed the parsed body; needed for YAML bodies (JSON bodies are re-read from the text to see duplicates)
 */
export function builtinBodyProblems(body: string, root: SchemaNode, table: SchemaTable, options: { yaml?: boolean; parsed?: unknown } = {}): BodyDecodeResult {
  const yaml = options.yaml ?? false;
  const yamlError = yaml ? yamlDuplicateKeysError(body) : undefined;
  const result = decodeBuiltin(bodyAst(body, yaml, options.parsed), root, table);
  const strictErrors = yamlError ? [yamlError, ...result.strictErrors] : [...result.strictErrors];
  return result.error !== undefined ? { error: result.error, strictErrors } : { strictErrors };
}

/**
 * Strict errors of a request body for a custom resource: duplicate fields
 * anywhere in the body (decoding into a map checks every level), then the
 * unknown fields pruning found (prune.ts's `pruneCustomResource`).
 */
export function customResourceStrictErrors(body: string, unknownFields: readonly string[], options: { yaml?: boolean } = {}): string[] {
  const out: string[] = [];
  if (options.yaml) {
    const yamlError = yamlDuplicateKeysError(body);
    if (yamlError) out.push(yamlError);
  } else {
    out.push(...duplicateFields(parseJsonAst(body)));
  }
  for (const path of unknownFields) out.push(`unknown field ${JSON.stringify(path)}`);
  return out;
}

/** Every duplicate key of a JSON tree with its decoder path, in document order, deduplicated, at most 100. */
export function duplicateFields(ast: JsonAst): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (node: JsonAst, path: string): void => {
    if (node.kind === 'object') {
      const keys = new Set<string>();
      for (const { key, value } of node.entries) {
        if (keys.has(key) && out.length < 100) {
          const message = `duplicate field ${JSON.stringify(path ? `${path}.${key}` : key)}`;
          if (!seen.has(message)) {
            seen.add(message);
            out.push(message);
          }
        }
        keys.add(key);
        walk(value, path ? `${path}.${key}` : key);
      }
    } else if (node.kind === 'array') {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  walk(ast, '');
  return out;
}

/**
 * The error sigs.k8s.io/yaml's YAMLToJSONStrict (go-yaml v2, strict) returns
 * for duplicate mapping keys, or undefined:
 * `yaml: unmarshal errors:\n  line 4: key "name" already set in map`.
 */
export function yamlDuplicateKeysError(text: string): string | undefined {
  const lineCounter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(text, { uniqueKeys: false, lineCounter });
  } catch {
    return undefined;
  }
  const problems: string[] = [];
  const walk = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = pair.key as YamlNode | null;
        if (isScalar(key)) {
          const id = `${typeof key.value}:${String(key.value)}`;
          if (seen.has(id)) {
            const line = key.range ? lineCounter.linePos(key.range[0]).line : 0;
            problems.push(`line ${line}: key ${goSyntax(key.value)} already set in map`);
          }
          seen.add(id);
        }
        walk(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(doc.contents);
  return problems.length ? `yaml: unmarshal errors:\n  ${problems.join('\n  ')}` : undefined;
}

/** Go's %#v of a YAML scalar key. */
function goSyntax(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
