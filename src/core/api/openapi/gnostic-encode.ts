// The /openapi/v2 document as protobuf: gnostic's OpenAPIv2 messages
// (package openapi.v2, google/gnostic-models openapiv2/OpenAPIv2.proto), the
// bytes kube-apiserver sends for Accept:
// application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf. kube makes
// them by parsing its JSON document with gnostic and marshalling the result,
// so this encoder walks the JSON document the way gnostic's compiler does:
// maps become repeated Named* pairs in document order, `type` a TypeItem,
// `items` an ItemsItem, a parameter a Parameter or JsonReference oneof, every
// "x-" key a NamedAny whose Any holds the value as YAML text (kubectl reads
// x-kubernetes-group-version-kind back with a YAML parser). Fields are written
// in field-number order with proto3 rules: zero scalars left out, a set
// message (even empty) and a set oneof member always written.
//
// Only the parts of Swagger 2.0 that a Kubernetes document uses are mapped;
// anything else in the input is left out of the protobuf.

import { ProtoWriter } from '../../protobuf/wire';
import { encodeYaml } from '../negotiation/yaml-encode';

type Json = Record<string, unknown>;

const utf8 = new TextEncoder();
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

const LEN = 2;
const VARINT = 0;
const FIXED64 = 1;

function string(w: ProtoWriter, field: number, value: unknown): void {
  if (typeof value === 'string' && value !== '') w.tag(field, LEN).lengthDelimited(utf8.encode(value));
}
function strings(w: ProtoWriter, field: number, value: unknown): void {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  for (const s of list) w.tag(field, LEN).lengthDelimited(utf8.encode(String(s)));
}
function bool(w: ProtoWriter, field: number, value: unknown): void {
  if (value === true) w.tag(field, VARINT).varint(1);
}
function int64(w: ProtoWriter, field: number, value: unknown): void {
  if (typeof value === 'number' && value !== 0) w.tag(field, VARINT).varint(Math.trunc(value));
}
function double(w: ProtoWriter, field: number, value: unknown): void {
  if (typeof value === 'number' && value !== 0) w.tag(field, FIXED64).fixed64((view) => view.setFloat64(0, value, true));
}
function message(w: ProtoWriter, field: number, build: (inner: ProtoWriter) => void): void {
  const inner = new ProtoWriter();
  build(inner);
  w.tag(field, LEN).lengthDelimited(inner.finish());
}

/** Any { google.protobuf.Any value = 1; string yaml = 2; }: gnostic keeps values it has no message for as YAML. */
function any(w: ProtoWriter, field: number, value: unknown): void {
  message(w, field, (a) => string(a, 2, yamlOf(value)));
}
function yamlOf(value: unknown): string {
  const text = encodeYaml(value);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** repeated NamedAny vendor_extension: every "x-" key, in document order. */
function vendorExtensions(w: ProtoWriter, field: number, o: Json): void {
  for (const [key, value] of Object.entries(o)) {
    if (!key.startsWith('x-')) continue;
    message(w, field, (pair) => {
      string(pair, 1, key);
      any(pair, 2, value);
    });
  }
}

/** A repeated Named<T> { string name = 1; T value = 2; } list from a JSON map. */
function named(w: ProtoWriter, field: number, map: Json, value: (inner: ProtoWriter, v: unknown) => void, skip?: (key: string) => boolean): void {
  for (const [key, v] of Object.entries(map)) {
    if (skip?.(key)) continue;
    message(w, field, (pair) => {
      string(pair, 1, key);
      message(pair, 2, (inner) => value(inner, v));
    });
  }
}

function schema(w: ProtoWriter, s: unknown): void {
  if (!isObject(s)) return;
  string(w, 1, s.$ref);
  string(w, 2, s.format);
  string(w, 3, s.title);
  string(w, 4, s.description);
  if (s.default !== undefined) any(w, 5, s.default);
  double(w, 6, s.multipleOf);
  double(w, 7, s.maximum);
  bool(w, 8, s.exclusiveMaximum);
  double(w, 9, s.minimum);
  bool(w, 10, s.exclusiveMinimum);
  int64(w, 11, s.maxLength);
  int64(w, 12, s.minLength);
  string(w, 13, s.pattern);
  int64(w, 14, s.maxItems);
  int64(w, 15, s.minItems);
  bool(w, 16, s.uniqueItems);
  int64(w, 17, s.maxProperties);
  int64(w, 18, s.minProperties);
  strings(w, 19, s.required);
  if (Array.isArray(s.enum)) for (const v of s.enum) any(w, 20, v);
  const ap = s.additionalProperties;
  if (isObject(ap)) message(w, 21, (item) => message(item, 1, (inner) => schema(inner, ap)));
  else if (typeof ap === 'boolean') message(w, 21, (item) => item.tag(2, VARINT).varint(ap ? 1 : 0));
  if (s.type !== undefined) message(w, 22, (t) => strings(t, 1, s.type));
  const items = s.items;
  if (items !== undefined) {
    message(w, 23, (item) => {
      for (const one of Array.isArray(items) ? items : [items]) message(item, 1, (inner) => schema(inner, one));
    });
  }
  if (Array.isArray(s.allOf)) for (const one of s.allOf) message(w, 24, (inner) => schema(inner, one));
  if (isObject(s.properties)) message(w, 25, (props) => named(props, 1, s.properties as Json, schema));
  string(w, 26, s.discriminator);
  bool(w, 27, s.readOnly);
  if (s.example !== undefined) any(w, 30, s.example);
  vendorExtensions(w, 31, s);
}

/**
 * Field numbers of the non-body parameter sub-schemas from `type` on: the
 * header and path ones number 5…22, the query and formData ones (which have
 * allow_empty_value at 5) 6…23.
 */
function nonBodyParameter(w: ProtoWriter, p: Json, typeField: number): void {
  bool(w, 1, p.required);
  string(w, 2, p.in);
  string(w, 3, p.description);
  string(w, 4, p.name);
  if (typeField === 6) bool(w, 5, p.allowEmptyValue);
  string(w, typeField, p.type);
  string(w, typeField + 1, p.format);
  string(w, typeField + 3, p.collectionFormat);
  if (p.default !== undefined) any(w, typeField + 4, p.default);
  double(w, typeField + 5, p.maximum);
  bool(w, typeField + 6, p.exclusiveMaximum);
  double(w, typeField + 7, p.minimum);
  bool(w, typeField + 8, p.exclusiveMinimum);
  int64(w, typeField + 9, p.maxLength);
  int64(w, typeField + 10, p.minLength);
  string(w, typeField + 11, p.pattern);
  int64(w, typeField + 12, p.maxItems);
  int64(w, typeField + 13, p.minItems);
  bool(w, typeField + 14, p.uniqueItems);
  if (Array.isArray(p.enum)) for (const v of p.enum) any(w, typeField + 15, v);
  double(w, typeField + 16, p.multipleOf);
  vendorExtensions(w, typeField + 17, p);
}

/** Parameter { oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; } } */
function parameter(w: ProtoWriter, p: unknown): void {
  if (!isObject(p)) return;
  if (p.in === 'body') {
    message(w, 1, (b) => {
      string(b, 1, p.description);
      string(b, 2, p.name);
      string(b, 3, p.in);
      bool(b, 4, p.required);
      if (p.schema !== undefined) message(b, 5, (inner) => schema(inner, p.schema));
      vendorExtensions(b, 6, p);
    });
    return;
  }
  // NonBodyParameter oneof: header 1, formData 2, query 3, path 4.
  const which = { header: [1, 5], formData: [2, 6], query: [3, 6], path: [4, 5] }[String(p.in)];
  if (!which) return;
  message(w, 2, (nb) => message(nb, which[0]!, (sub) => nonBodyParameter(sub, p, which[1]!)));
}

/** ParametersItem { oneof { Parameter parameter = 1; JsonReference json_reference = 2; } } */
function parametersItem(w: ProtoWriter, field: number, p: unknown): void {
  if (!isObject(p)) return;
  message(w, field, (item) => {
    if (typeof p.$ref === 'string') {
      message(item, 2, (ref) => {
        string(ref, 1, p.$ref);
        string(ref, 2, p.description);
      });
    } else {
      message(item, 1, (inner) => parameter(inner, p));
    }
  });
}

function response(w: ProtoWriter, r: unknown): void {
  if (!isObject(r)) return;
  // ResponseValue { oneof { Response response = 1; JsonReference json_reference = 2; } }
  if (typeof r.$ref === 'string') {
    message(w, 2, (ref) => string(ref, 1, r.$ref));
    return;
  }
  message(w, 1, (res) => {
    string(res, 1, r.description);
    if (r.schema !== undefined) message(res, 2, (item) => message(item, 1, (inner) => schema(inner, r.schema)));
    vendorExtensions(res, 5, r);
  });
}

function operation(w: ProtoWriter, op: Json): void {
  strings(w, 1, op.tags);
  string(w, 2, op.summary);
  string(w, 3, op.description);
  string(w, 5, op.operationId);
  strings(w, 6, op.produces);
  strings(w, 7, op.consumes);
  if (Array.isArray(op.parameters)) for (const p of op.parameters) parametersItem(w, 8, p);
  if (isObject(op.responses)) {
    const responses = op.responses;
    message(w, 9, (rs) => {
      named(rs, 1, responses, response, (key) => key.startsWith('x-'));
      vendorExtensions(rs, 2, responses);
    });
  }
  strings(w, 10, op.schemes);
  bool(w, 11, op.deprecated);
  vendorExtensions(w, 13, op);
}

const PATH_ITEM_FIELDS: readonly [string, number][] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(w: ProtoWriter, item: unknown): void {
  if (!isObject(item)) return;
  string(w, 1, item.$ref);
  for (const [method, field] of PATH_ITEM_FIELDS) {
    const op = item[method];
    if (isObject(op)) message(w, field, (inner) => operation(inner, op));
  }
  if (Array.isArray(item.parameters)) for (const p of item.parameters) parametersItem(w, 9, p);
  vendorExtensions(w, 10, item);
}

/** SecurityRequirement { repeated NamedStringArray additional_properties = 1; } */
function securityRequirement(w: ProtoWriter, field: number, requirement: unknown): void {
  if (!isObject(requirement)) return;
  message(w, field, (req) =>
    named(req, 1, requirement, (arr, scopes) => strings(arr, 1, scopes)),
  );
}

/** SecurityDefinitionsItem: only the apiKey kind (oneof member 2) is mapped. */
function securityDefinition(w: ProtoWriter, d: unknown): void {
  if (!isObject(d) || d.type !== 'apiKey') return;
  message(w, 2, (key) => {
    string(key, 1, d.type);
    string(key, 2, d.name);
    string(key, 3, d.in);
    string(key, 4, d.description);
    vendorExtensions(key, 5, d);
  });
}

/** The gnostic openapi.v2.Document bytes of a Swagger 2.0 document. */
export function encodeSwaggerProtobuf(doc: Json): Uint8Array {
  const w = new ProtoWriter();
  string(w, 1, doc.swagger);
  const info = doc.info;
  if (isObject(info)) {
    message(w, 2, (i) => {
      string(i, 1, info.title);
      string(i, 2, info.version);
      string(i, 3, info.description);
      string(i, 4, info.termsOfService);
      vendorExtensions(i, 7, info);
    });
  }
  string(w, 3, doc.host);
  string(w, 4, doc.basePath);
  strings(w, 5, doc.schemes);
  strings(w, 6, doc.consumes);
  strings(w, 7, doc.produces);
  const paths = doc.paths;
  if (isObject(paths)) {
    message(w, 8, (ps) => {
      vendorExtensions(ps, 1, paths);
      named(ps, 2, paths, pathItem, (key) => key.startsWith('x-'));
    });
  }
  if (isObject(doc.definitions)) {
    const definitions = doc.definitions;
    message(w, 9, (ds) => named(ds, 1, definitions, schema));
  }
  if (isObject(doc.parameters)) {
    const parameters = doc.parameters;
    message(w, 10, (ps) => named(ps, 1, parameters, parameter));
  }
  if (Array.isArray(doc.security)) for (const req of doc.security) securityRequirement(w, 12, req);
  if (isObject(doc.securityDefinitions)) {
    const defs = doc.securityDefinitions;
    message(w, 13, (sd) => named(sd, 1, defs, securityDefinition));
  }
  vendorExtensions(w, 16, doc);
  return w.finish();
}
