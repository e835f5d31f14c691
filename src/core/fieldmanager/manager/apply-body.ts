// Decoding an apply patch body (YAML or JSON) as kube-apiserver's apply
// patcher does: sigs.k8s.io/yaml (YAML 1.1) into a map. Anything but an
// object (or null, which is an empty object) is a 400:
//
//   error decoding YAML: json: cannot unmarshal array into Go value of type map[string]interface {}

import { parseAllDocuments } from 'yaml';
import { yamlDepthError } from '../../api/negotiation/yaml-depth';
import { errors } from '../../errors/status';
import type { KubeObject } from '../../kinds/types';
import { setOwn } from '../../util/set-own';

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

export function decodeApplyBody(body: string): KubeObject {
  let value: unknown;
  try {
    const tooDeep = yamlDepthError(body);
    if (tooDeep) throw new Error(tooDeep);
    // JSON is YAML: a body that parses as a JSON object (what controllers and client libraries send)
    // decodes to the same map, without the YAML parser's cost. Anything else takes the YAML path.
    const json = jsonObject(body);
    if (json) return jsonSafe(json) as KubeObject;
    const docs = parseAllDocuments(body, { version: '1.1', uniqueKeys: false, merge: true, intAsBigInt: false });
    const doc = Array.isArray(docs) ? docs[0] : docs;
    if (doc && doc.errors.length > 0) {
      const err = doc.errors[0]!;
      const line = err.linePos?.[0]?.line;
      throw new Error(`yaml: ${line !== undefined ? `line ${line}: ` : ''}${err.message.split('\n')[0]}`);
    }
    value = doc ? doc.toJS({ maxAliasCount: 100 }) : null;
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    throw errors.badRequest(`error decoding YAML: error converting YAML to JSON: ${text.startsWith('yaml: ') ? text : `yaml: ${text}`}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw errors.badRequest(`error decoding YAML: json: cannot unmarshal ${goKind(value)} into Go value of type map[string]interface {}`);
  }
  return jsonSafe(value) as KubeObject;
}

/**
 * The body as a JSON object, or undefined (not JSON, or not an object). JSON's quoted strings and keys
 * mean the same in YAML 1.1 (a quoted "<<" is no merge key there either: only the plain scalar is).
 */
function jsonObject(body: string): object | undefined {
  if (!/^\s*\{/.test(body)) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** YAML may produce non-JSON values (dates, non-string keys); sigs.k8s.io/yaml converts them to JSON first. */
function jsonSafe(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) setOwn(out, String(k), jsonSafe(x));
    return out;
  }
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) setOwn(out, k, jsonSafe(x));
    return out;
  }
  if (typeof v === 'bigint') return Number(v);
  return v;
}
