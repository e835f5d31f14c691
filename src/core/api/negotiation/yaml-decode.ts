// Decoding a YAML request body as kube-apiserver does (sigs.k8s.io/yaml
// YAMLToJSON over go-yaml v2, i.e. YAML 1.1 scalars): the syntax is read by
// the `yaml` package, and every scalar is then given go-yaml's meaning
// (yaml-resolve.ts), so `enabled: yes` is the boolean true and `mode: 0755`
// the number 493, exactly what a kube client sees in the stored object.
// Only the first document counts. Keys that are not strings become strings
// (1 → "1", true → "true"); a null key is an error. Merge keys (<<) merge in
// document order, as go-yaml v2 does. Error texts start with "yaml: ",
// as go-yaml's do; line numbers and wording follow go-yaml where the cause
// is clear, and are the parser's own otherwise.

import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node, type Scalar } from 'yaml';
import { formatFloatG } from '../../util/go/format-float';
import { resolvePlain } from './yaml-resolve';
import { yamlDepthError } from './yaml-depth';

export class YamlDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlDecodeError';
  }
}

export interface DecodedYaml {
  readonly value: unknown;
  /**
   * What strict decoding (fieldValidation=Strict/Warn) reports for the YAML
   * itself: go-yaml's UnmarshalStrict error for duplicate keys, as one
   * message ("yaml: unmarshal errors:\n  line 3: key \"a\" already set in map").
   */
  readonly strictErrors: readonly string[];
}

const STR_TAG = 'tag:yaml.org,2002:str';
const BINARY_TAG = 'tag:yaml.org,2002:binary';
const RESOLVABLE: Record<string, string> = {
  'tag:yaml.org,2002:bool': 'bool',
  'tag:yaml.org,2002:int': 'int',
  'tag:yaml.org,2002:float': 'float',
  'tag:yaml.org,2002:null': 'null',
  'tag:yaml.org,2002:timestamp': 'timestamp',
};

const shortTag = (tag: string) => (tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag);

/** go-yaml's bounds on alias expansion ("billion laughs"). */
function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400_000) return 0.99;
  if (decodeCount >= 4_000_000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400_000) / 3_600_000);
}

/**
 * Past go-yaml's ratio rule, a bound of KubeTab's own: a document whose aliases
 * expand to more than this many nodes is refused with go-yaml's message. go-yaml
 * reaches its own refusal only after some four million nodes, which takes it
 * milliseconds and a JavaScript decoder seconds; no object that fits in a
 * request (3 MiB) needs aliases to expand this far.
 */
const MAX_ALIASED_NODES = 500_000;

/** A decoded YAML value before it is made JSON-compatible: ints stay exact until then. */
type YamlValue = null | boolean | number | bigint | string | YamlValue[] | YamlMap;
type YamlMap = Map<unknown, YamlValue>;

class Decoder {
  private decodeCount = 0;
  private aliasCount = 0;
  private readonly aliasStack = new Set<Node>();
  /** Each alias's target, found once: the parser's own resolve walks the whole document every time. */
  private readonly targets = new Map<unknown, Node | undefined>();
  readonly duplicates: string[] = [];

  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  decode(node: unknown): YamlValue {
    this.decodeCount++;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      throw new YamlDecodeError('yaml: document contains excessive aliasing');
    }
    if (this.aliasCount > 0 && this.decodeCount > MAX_ALIASED_NODES) throw new YamlDecodeError('yaml: document contains excessive aliasing');
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = this.target(node);
      if (!target) throw new YamlDecodeError(`yaml: unknown anchor '${node.source}' referenced`);
      if (this.aliasStack.has(target)) throw new YamlDecodeError(`yaml: anchor '${node.source}' value contains itself`);
      this.aliasCount++;
      this.aliasStack.add(target);
      try {
        return this.decode(target);
      } finally {
        this.aliasStack.delete(target);
      }
    }
    if (isScalar(node)) return this.scalar(node);
    if (isSeq(node)) return node.items.map((item) => this.decode(item));
    if (isMap(node)) {
      const out: YamlMap = new Map();
      this.mapping(node.items, out);
      return out;
    }
    throw new YamlDecodeError('yaml: unknown problem parsing YAML content');
  }

  private target(alias: { resolve(doc: Document.Parsed): unknown }): Node | undefined {
    if (this.targets.has(alias)) return this.targets.get(alias);
    const target = alias.resolve(this.doc) as Node | undefined;
    this.targets.set(alias, target);
    return target;
  }

  private scalar(node: Scalar): YamlValue {
    // The parser already decodes !!binary into bytes; go-yaml makes a (byte) string of them.
    if (node.value instanceof Uint8Array) return new TextDecoder().decode(node.value);
    const text = String(node.value ?? '');
    const plain = node.type === 'PLAIN' || node.type === undefined;
    const tag = node.tag;
    if (!tag || tag === '!') {
      // Quoted and block scalars are strings; plain ones are resolved.
      if (!plain || tag === '!') return text;
      return this.resolved(text, resolvePlain(text));
    }
    if (tag === STR_TAG) return text;
    if (tag === BINARY_TAG) {
      try {
        return new TextDecoder().decode(Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0)));
      } catch {
        throw new YamlDecodeError('yaml: !!binary value contains invalid base64 data');
      }
    }
    const wanted = RESOLVABLE[tag];
    if (!wanted) return text; // an application tag: the text as is
    const r = resolvePlain(text);
    if (r.tag === wanted) return this.resolved(text, r);
    if (wanted === 'float' && r.tag === 'int') return Number(r.value);
    throw new YamlDecodeError(`yaml: cannot decode ${shortTag(`tag:yaml.org,2002:${r.tag}`)} \`${text}\` as a ${shortTag(tag)}`);
  }

  private resolved(text: string, r: ReturnType<typeof resolvePlain>): YamlValue {
    switch (r.tag) {
      case 'null':
        return null;
      case 'bool':
        return r.value;
      case 'int':
        return r.value;
      case 'float':
        return r.value;
      case 'merge':
        return '<<';
      default:
        // Strings, and timestamps, which go-yaml v2 hands to interface{} as their text.
        return text;
    }
  }

  private isMergeKey(key: unknown): boolean {
    return isScalar(key) && key.value === '<<' && (((key.type === 'PLAIN' || key.type === undefined) && !key.tag) || key.tag === 'tag:yaml.org,2002:merge');
  }

  /** Follows an alias for a merge value, counting it like any alias expansion. */
  private deref(node: unknown): unknown {
    if (!isAlias(node)) return node;
    const target = this.target(node);
    if (!target) throw new YamlDecodeError(`yaml: unknown anchor '${node.source}' referenced`);
    this.aliasCount++;
    return target;
  }

  mapping(items: readonly unknown[], out: YamlMap): void {
    for (const pair of items) {
      if (!isPair(pair)) continue;
      if (this.isMergeKey(pair.key)) {
        this.merge(pair.value, out);
        continue;
      }
      const key = this.decode(pair.key);
      if (key instanceof Map || Array.isArray(key)) throw new YamlDecodeError(`yaml: invalid map key: ${goSharpV(key)}`);
      const value = this.decode(pair.value);
      // go-yaml's strict mode reports the line of the value that repeats a key.
      if (out.has(key)) this.duplicates.push(`line ${this.lineOf(pair.value ?? pair.key)}: key ${goSharpV(key)} already set in map`);
      out.set(key, value);
    }
  }

  /** `<<: *base` or `<<: [*a, *b]`: merged in place, later sources first so that earlier ones win. */
  private merge(value: unknown, out: YamlMap): void {
    const node = this.deref(value);
    if (isMap(node)) return this.mapping(node.items, out);
    if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = this.deref(node.items[i]);
        if (!isMap(item)) throw new YamlDecodeError('yaml: map merge requires map or sequence of maps as the value');
        this.mapping(item.items, out);
      }
      return;
    }
    throw new YamlDecodeError('yaml: map merge requires map or sequence of maps as the value');
  }

  lineOf(node: unknown): number {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? this.lines.linePos(range[0]).line : 0;
  }
}

/** Go's %#v for decoded YAML values (only ever shown in error messages). */
function goSharpV(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (v instanceof Map) return `map[interface {}]interface {}{${[...v].map(([k, x]) => `${goSharpV(k)}:${goSharpV(x)}`).join(', ')}}`;
  return String(v);
}

/** A map key as JSON needs it: sigs.k8s.io/yaml writes ints, floats and bools as text. */
function jsonKey(key: unknown, value: YamlValue): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'bigint') return key.toString();
  if (typeof key === 'number') return formatFloatG(key);
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  throw new YamlDecodeError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goSharpV(value)}`);
}

/** The JSON sigs.k8s.io/yaml would produce, as a JavaScript value; NaN and infinities cannot be JSON. */
function toJsonValue(v: YamlValue): unknown {
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[jsonKey(k, x)] = toJsonValue(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isFinite(v)) throw new YamlDecodeError(`json: unsupported value: ${formatFloatG(v)}`);
  return v;
}

/** go-yaml's wording for the parse errors a client is likely to make. */
function goYamlMessage(code: string, message: string): string {
  switch (code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      return 'mapping values are not allowed in this context';
    case 'TAB_AS_INDENT':
      return 'found character that cannot start any token';
    case 'BAD_INDENT':
      return 'did not find expected key';
    case 'MISSING_CHAR':
      if (/quote/i.test(message)) return 'found unexpected end of stream';
      if (/\]/.test(message)) return "did not find expected ',' or ']'";
      if (/}/.test(message)) return "did not find expected ',' or '}'";
      return 'did not find expected node content';
    default: {
      const first = message.split(' at line ')[0]!.split('\n')[0]!;
      return first.charAt(0).toLowerCase() + first.slice(1);
    }
  }
}

/** YAMLToJSON: the first document of `text` as JSON-compatible data. Throws YamlDecodeError with go-yaml-style text. */
export function decodeYaml(input: Uint8Array | string): DecodedYaml {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const tooDeep = yamlDepthError(text);
  if (tooDeep) throw new YamlDecodeError(tooDeep);
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, lineCounter: lines, strict: false });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (!doc) return { value: null, strictErrors: [] };
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line;
    throw new YamlDecodeError(`yaml: ${line ? `line ${line}: ` : ''}${goYamlMessage(err.code, err.message)}`);
  }
  const decoder = new Decoder(doc, lines);
  const value = toJsonValue(decoder.decode(doc.contents));
  const strictErrors = decoder.duplicates.length ? [`yaml: unmarshal errors:\n  ${decoder.duplicates.join('\n  ')}`] : [];
  return { value, strictErrors };
}
