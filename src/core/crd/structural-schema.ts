// Whether a CRD's openAPIV3Schema is structural, with apiextensions-apiserver's
// field paths and messages (pkg/apiserver/schema ValidateStructural and its
// completeness check). A structural schema states `type` for every node, keeps
// value validations (allOf/anyOf/oneOf/not) free of types, defaults and
// extensions, and restricts `metadata` at the root to name and generateName.
//
// The schema is read as the JSON the client sent (JSONSchemaProps), because
// structurality is about which keywords appear where.

import { childPath, fieldErrorString, fieldErrors, keyPath, type FieldError } from '../errors/field-errors';

type Props = Record<string, unknown>;

export function isProps(x: unknown): x is Props {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

type Level = 'root' | 'item' | 'field';

/** Whether a keyword carries a non-zero value (Go's zero values do not count as specified). */
function has(p: Props, key: string): boolean {
  const v = p[key];
  if (v === undefined || v === null || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isProps(v)) return Object.keys(v).length > 0;
  return true;
}

function propsOf(p: Props): [string, Props][] {
  if (!isProps(p.properties)) return [];
  return Object.keys(p.properties)
    .sort()
    .map((k) => [k, isProps((p.properties as Props)[k]) ? ((p.properties as Props)[k] as Props) : {}]);
}

function additionalSchema(p: Props): Props | undefined {
  return isProps(p.additionalProperties) ? p.additionalProperties : undefined;
}

/** The int-or-string anyOf patterns kube accepts inside a structural schema. */
function isIntOrStringAnyOf(list: unknown): boolean {
  if (!Array.isArray(list) || list.length !== 2) return false;
  const only = (x: unknown, type: string) => isProps(x) && Object.keys(x).length === 1 && x.type === type;
  return only(list[0], 'integer') && only(list[1], 'string');
}

function anyOfIsIntOrString(p: Props): boolean {
  return isIntOrStringAnyOf(p.anyOf);
}

function allOfStartsWithIntOrString(p: Props): boolean {
  return Array.isArray(p.allOf) && p.allOf.length >= 1 && isProps(p.allOf[0]) && isIntOrStringAnyOf((p.allOf[0] as Props).anyOf);
}

/**
 * ValidateStructural: the invariants and the completeness check, errors
 * sorted by their text as kube sorts them.
 */
export function validateStructural(schema: Props, path: string): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completeness(schema, path)];
  return errs.sort((a, b) => {
    const x = fieldErrorString(a);
    const y = fieldErrorString(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function invariants(s: Props, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  const items = isProps(s.items) ? s.items : undefined;
  if (type === 'array' && !items) errs.push(fieldErrors.required(childPath(path, 'items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', childPath(path, 'items')));
  for (const [key, prop] of propsOf(s)) errs.push(...invariants(prop, 'field', keyPath(childPath(path, 'properties'), key)));
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (level === 'root') errs.push(fieldErrors.forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
    const ap = additionalSchema(s);
    if (ap) errs.push(...invariants(ap, 'field', childPath(path, 'additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) {
    errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) {
    errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  errs.push(...valueValidation(s, anyOfIsIntOrString(s), allOfStartsWithIntOrString(s), level, path));

  const checkMetadata = level === 'root' || embedded;
  if (embedded && type !== 'object') {
    if (!type) errs.push(fieldErrors.required(childPath(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && !preserve) {
    const detail = level === 'root' ? 'must not be empty at the root' : level === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(fieldErrors.required(childPath(path, 'type'), detail));
  }
  if (embedded && s.additionalProperties !== undefined && s.additionalProperties !== null) {
    errs.push(fieldErrors.forbidden(childPath(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && type && type !== 'object') errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object at the root'));

  const properties = isProps(s.properties) ? s.properties : {};
  for (const meta of ['kind', 'apiVersion']) {
    const prop = properties[meta];
    if (checkMetadata && prop !== undefined) {
      const t = isProps(prop) && typeof prop.type === 'string' ? prop.type : '';
      if (t !== 'string') errs.push(fieldErrors.invalid(childPath(keyPath(childPath(path, 'properties'), meta), 'type'), t, 'must be string'));
    }
  }
  if (properties.metadata !== undefined) {
    errs.push(...metadataInvariants(isProps(properties.metadata) ? properties.metadata : {}, checkMetadata, level, keyPath(childPath(path, 'properties'), 'metadata')));
  }
  if (embedded && !preserve && propsOf(s).length === 0) {
    errs.push(fieldErrors.required(childPath(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** At the root, metadata may only restrict name and generateName; elsewhere it must at least be an object where kube treats it as ObjectMeta. */
function metadataInvariants(s: Props, checkMetadata: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  if (checkMetadata && type !== 'object') errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object'));
  if (level === 'root') {
    const names = propsOf(s).map(([k]) => k);
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    const others = Object.keys(s).filter((k) => k !== 'type' && k !== 'properties' && k !== 'default' && has(s, k));
    if (!onlyNames || others.length > 0) {
      errs.push(fieldErrors.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

function valueValidation(s: Props, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf && Array.isArray(s.anyOf)) {
    s.anyOf.forEach((v, i) => errs.push(...nested(isProps(v) ? v : {}, false, level, `${childPath(path, 'anyOf')}[${i}]`)));
  }
  if (Array.isArray(s.allOf)) {
    s.allOf.forEach((v, i) => errs.push(...nested(isProps(v) ? v : {}, skipFirstAllOfAnyOf && i === 0, level, `${childPath(path, 'allOf')}[${i}]`)));
  }
  if (Array.isArray(s.oneOf)) {
    s.oneOf.forEach((v, i) => errs.push(...nested(isProps(v) ? v : {}, false, level, `${childPath(path, 'oneOf')}[${i}]`)));
  }
  if (isProps(s.not)) errs.push(...nested(s.not, false, level, childPath(path, 'not')));
  if (typeof s.pattern === 'string' && s.pattern) {
    try {
      new RegExp(s.pattern, 'u');
    } catch (err) {
      errs.push(fieldErrors.invalid(childPath(path, 'pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errs;
}

/** A schema under allOf/anyOf/oneOf/not: value validation only. */
function nested(v: Props, skipAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...valueValidation(v, skipAnyOf, false, level, path));
  if (isProps(v.items)) errs.push(...nested(v.items, false, level, childPath(path, 'items')));
  for (const [key, prop] of propsOf(v)) errs.push(...nested(prop, false, 'field', keyPath(childPath(path, 'properties'), key)));
  const forbidden = (key: string, detail: string) => errs.push(fieldErrors.forbidden(childPath(path, key), detail));
  if (typeof v.type === 'string' && v.type) forbidden('type', 'must be empty to be structural');
  if (v.additionalProperties !== undefined && v.additionalProperties !== null) forbidden('additionalProperties', 'must be undefined to be structural');
  if (v.default !== undefined && v.default !== null) forbidden('default', 'must be undefined to be structural');
  if (typeof v.title === 'string' && v.title) forbidden('title', 'must be empty to be structural');
  if (typeof v.description === 'string' && v.description) forbidden('description', 'must be empty to be structural');
  if (v.nullable === true) forbidden('nullable', 'must be false to be structural');
  if (isProps(v.externalDocs)) forbidden('externalDocs', 'must be undefined to be structural');
  if (v['x-kubernetes-preserve-unknown-fields'] === true) forbidden('x-kubernetes-preserve-unknown-fields', 'must be false to be structural');
  if (v['x-kubernetes-embedded-resource'] === true) forbidden('x-kubernetes-embedded-resource', 'must be false to be structural');
  if (v['x-kubernetes-int-or-string'] === true) forbidden('x-kubernetes-int-or-string', 'must be false to be structural');
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length) forbidden('x-kubernetes-list-map-keys', 'must be empty to be structural');
  if (typeof v['x-kubernetes-list-type'] === 'string') forbidden('x-kubernetes-list-type', 'must be undefined to be structural');
  if (typeof v['x-kubernetes-map-type'] === 'string') forbidden('x-kubernetes-map-type', 'must be undefined to be structural');
  if (Array.isArray(v['x-kubernetes-validations']) && v['x-kubernetes-validations'].length) forbidden('x-kubernetes-validations', 'must be empty to be structural');
  if (isProps(v.properties) && Object.hasOwn(v.properties, 'metadata')) {
    errs.push(fieldErrors.forbidden(keyPath(childPath(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

/** Every field or item a value validation names must be specified outside value validations (only from the root, as kube checks). */
function completeness(s: Props, path: string): FieldError[] {
  return valueValidationCompleteness(s, s, path, path);
}

function valueValidationCompleteness(v: Props, s: Props | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [];
  if (isProps(v.not)) errs.push(...nestedCompleteness(v.not, s, sPath, childPath(vPath, 'not')));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = v[key];
    if (Array.isArray(list)) list.forEach((x, i) => errs.push(...nestedCompleteness(isProps(x) ? x : {}, s, sPath, `${childPath(vPath, key)}[${i}]`)));
  }
  return errs;
}

function nestedCompleteness(v: Props, s: Props | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errs: FieldError[] = [...valueValidationCompleteness(v, s, sPath, vPath)];
  if (isProps(v.items)) {
    errs.push(...nestedCompleteness(v.items, isProps(s.items) ? s.items : undefined, childPath(sPath, 'items'), childPath(vPath, 'items')));
  }
  const sProps = isProps(s.properties) ? s.properties : {};
  for (const [key, vField] of propsOf(v)) {
    const sField = Object.hasOwn(sProps, key) && isProps(sProps[key]) ? (sProps[key] as Props) : undefined;
    const sp = keyPath(childPath(sPath, 'properties'), key);
    const vp = keyPath(childPath(vPath, 'properties'), key);
    if (!sField) errs.push(fieldErrors.required(sp, `because it is defined in ${vp}`));
    else errs.push(...nestedCompleteness(vField, sField, sp, vp));
  }
  return errs;
}

