// The keyword rules of a CRD's openAPIV3Schema that apiextensions' validation
// checks node by node (ValidateCustomResourceDefinitionOpenAPISchema and the
// OpenAPI v3 "standard validator"): unsupported keywords, the merge markers
// (x-kubernetes-list-type, -list-map-keys, -map-type) and their combinations,
// defaults where they are forbidden, and defaults that do not validate
// against their own schema or carry unknown fields.
//
// Not checked: CEL (x-kubernetes-validations rules are accepted without being
// compiled; see docs/decisions/0112).

import { childPath, fieldErrors, goStringSlice, indexPath, keyPath, type FieldError } from '../errors/field-errors';
import { fromJSONSchemaProps } from '../schema/crd-schema';
import { pruneStructural } from '../schema/prune';
import { validateCustomResource } from '../schema/typecheck';
import { deepEqual } from '../kinds/validation/deep-equal';
import { isProps } from './structural-schema';

type Props = Record<string, unknown>;

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const SUPPORTED_VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

interface Validator {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
}

const ROOT_VALIDATOR: Validator = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false };

function forbidDefaults(v: Validator, reason: string): Validator {
  return { ...v, allowDefaults: false, disallowDefaultsReason: reason };
}

function sortedProperties(p: Props): [string, Props][] {
  if (!isProps(p.properties)) return [];
  return Object.keys(p.properties)
    .sort()
    .map((k) => [k, isProps((p.properties as Props)[k]) ? ((p.properties as Props)[k] as Props) : {}]);
}

/** specStandardValidatorV3.validate: keywords OpenAPI v3 schemas of CRDs may not use. */
function standardRules(s: Props, path: string, v: Validator): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  if (type && !OPENAPI_V3_TYPES.includes(type)) errs.push(fieldErrors.notSupported(childPath(path, 'type'), type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && s.default !== null && !v.allowDefaults) {
    errs.push(fieldErrors.forbidden(childPath(path, 'default'), v.disallowDefaultsReason ? `must not be set ${v.disallowDefaultsReason}` : 'must not be set'));
  }
  if (typeof s.id === 'string' && s.id) errs.push(fieldErrors.forbidden(childPath(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) errs.push(fieldErrors.forbidden(childPath(path, 'additionalItems'), 'additionalItems is not supported'));
  if (isProps(s.patternProperties) && Object.keys(s.patternProperties).length) {
    errs.push(fieldErrors.forbidden(childPath(path, 'patternProperties'), 'patternProperties is not supported'));
  }
  if (isProps(s.definitions) && Object.keys(s.definitions).length) errs.push(fieldErrors.forbidden(childPath(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined && s.dependencies !== null) errs.push(fieldErrors.forbidden(childPath(path, 'dependencies'), 'dependencies is not supported'));
  if (typeof s.$ref === 'string') errs.push(fieldErrors.forbidden(childPath(path, '$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(fieldErrors.forbidden(childPath(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length) errs.push(fieldErrors.forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(fieldErrors.forbidden(childPath(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

/** ValidateCustomResourceDefinitionOpenAPISchema, recursively (map keys in sorted order). */
export function validateOpenAPISchema(s: Props, path: string, isRoot = true, v: Validator = ROOT_VALIDATOR): FieldError[] {
  const errs: FieldError[] = [...standardRules(s, path, v)];
  const type = typeof s.type === 'string' ? s.type : '';
  if (s.uniqueItems === true) {
    errs.push(fieldErrors.forbidden(childPath(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }
  const properties = sortedProperties(s);
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (properties.length && (s.additionalProperties === false || isProps(s.additionalProperties))) {
      errs.push(fieldErrors.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    if (isProps(s.additionalProperties)) {
      const sub = v.insideResourceMeta ? forbidDefaults(v, 'inside additionalProperties applying to object metadata') : v;
      errs.push(...validateOpenAPISchema(s.additionalProperties, childPath(path, 'additionalProperties'), false, sub));
    }
  }
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  for (const [key, prop] of properties) {
    let sub = v;
    if ((isRoot || embedded) && META_FIELDS.has(key)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${key}`);
    }
    errs.push(...validateOpenAPISchema(prop, keyPath(childPath(path, 'properties'), key), false, sub));
  }
  if (isProps(s.not)) errs.push(...validateOpenAPISchema(s.not, childPath(path, 'not'), false, v));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((x, i) => errs.push(...validateOpenAPISchema(isProps(x) ? x : {}, indexPath(childPath(path, key), i), false, v)));
  }
  if (isProps(s.items)) errs.push(...validateOpenAPISchema(s.items, childPath(path, 'items'), false, v));
  else if (Array.isArray(s.items)) s.items.forEach((x, i) => errs.push(...validateOpenAPISchema(isProps(x) ? x : {}, indexPath(childPath(path, 'items'), i), false, v)));

  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  const mapType = s['x-kubernetes-map-type'];
  if (typeof mapType === 'string' && type !== 'object') {
    if (!type) errs.push(fieldErrors.required(childPath(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (typeof mapType === 'string' && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErrors.notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const listType = typeof s['x-kubernetes-list-type'] === 'string' ? (s['x-kubernetes-list-type'] as string) : undefined;
  const items = isProps(s.items) ? s.items : undefined;
  if (listType !== undefined && type !== 'array') {
    if (!type) errs.push(fieldErrors.required(childPath(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(fieldErrors.invalid(childPath(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    if (items.type === 'array' && typeof items['x-kubernetes-list-type'] === 'string' && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(fieldErrors.invalid(childPath(childPath(path, 'items'), 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // kube reports the list type of the item here (its source passes XListType), which is usually unset: null.
      errs.push(fieldErrors.invalid(childPath(childPath(path, 'items'), 'x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(fieldErrors.notSupported(childPath(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]).map(String) : [];
  if (keys.length) {
    if (listType === undefined) errs.push(fieldErrors.required(childPath(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') errs.push(...listMapRules(s, keys, path));
  errs.push(...mapListKeysMapSetRules(s, listType, keys, path));
  errs.push(...validationRuleShapes(s, path));
  return errs;
}

function listMapRules(s: Props, keys: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!keys.length) errs.push(fieldErrors.required(childPath(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined || s.items === null) {
    errs.push(fieldErrors.required(childPath(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    return errs;
  }
  if (!isProps(s.items)) {
    errs.push(fieldErrors.invalid(childPath(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    return errs;
  }
  const items = s.items;
  const itemType = typeof items.type === 'string' ? items.type : '';
  if (itemType !== 'object') {
    errs.push(fieldErrors.invalid(childPath(childPath(path, 'items'), 'type'), itemType, "must be object if parent array's x-kubernetes-list-type is map"));
    return errs;
  }
  const props = isProps(items.properties) ? items.properties : {};
  const seen = new Set<string>();
  for (const k of keys) {
    const prop = Object.hasOwn(props, k) && isProps(props[k]) ? (props[k] as Props) : undefined;
    if (prop) {
      if (prop.type === 'array' || prop.type === 'object') {
        errs.push(fieldErrors.invalid(childPath(keyPath(childPath(childPath(path, 'items'), 'properties'), k), 'type'), itemType, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      }
    } else {
      errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-list-map-keys'), goStringSlice(keys), 'entries must all be names of item properties'));
    }
    if (seen.has(k)) errs.push(fieldErrors.invalid(childPath(path, 'x-kubernetes-list-map-keys'), goStringSlice(keys), 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errs;
}

/** Items of set and map lists may not be nullable; map keys must be required or defaulted, and not nullable. */
function mapListKeysMapSetRules(s: Props, listType: string | undefined, keys: string[], path: string): FieldError[] {
  if (!isProps(s.items) || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  const items = s.items;
  if (items.nullable === true) errs.push(fieldErrors.forbidden(childPath(childPath(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(Array.isArray(items.required) ? items.required.map(String) : []);
    const props = isProps(items.properties) ? items.properties : {};
    for (const k of keys) {
      const prop = Object.hasOwn(props, k) && isProps(props[k]) ? (props[k] as Props) : undefined;
      if (!prop) continue;
      const keyField = keyPath(childPath(childPath(path, 'items'), 'properties'), k);
      if (!required.has(k) && (prop.default === undefined || prop.default === null)) {
        errs.push(fieldErrors.required(childPath(keyField, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable === true) errs.push(fieldErrors.forbidden(childPath(keyField, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

/** The shape of x-kubernetes-validations entries (the rules themselves are not compiled). */
function validationRuleShapes(s: Props, path: string): FieldError[] {
  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  const errs: FieldError[] = [];
  rules.forEach((raw, i) => {
    const rule = isProps(raw) ? raw : {};
    const at = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    const text = typeof rule.rule === 'string' ? rule.rule.trim() : '';
    const message = typeof rule.message === 'string' ? rule.message : '';
    if (!text) errs.push(fieldErrors.required(childPath(at, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && message.trim().length === 0) errs.push(fieldErrors.invalid(childPath(at, 'message'), message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(message.trim())) errs.push(fieldErrors.invalid(childPath(at, 'message'), message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(text) && message.trim().length === 0) errs.push(fieldErrors.required(childPath(at, 'message'), 'message must be specified if rule contains line breaks'));
    const messageExpression = typeof rule.messageExpression === 'string' ? rule.messageExpression : '';
    if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
      errs.push(fieldErrors.required(childPath(at, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (typeof rule.reason === 'string' && !SUPPORTED_VALIDATION_REASONS.includes(rule.reason)) {
      errs.push(fieldErrors.notSupported(childPath(at, 'reason'), rule.reason, SUPPORTED_VALIDATION_REASONS));
    }
  });
  return errs;
}

/**
 * structuraldefaulting.ValidateDefaults: every default must be pruned (no
 * fields its schema does not know) and valid against its own schema. Does
 * not descend into additionalProperties (defaults are forbidden there).
 */
export function validateDefaults(s: Props, path: string, isResourceRoot = true): FieldError[] {
  return defaultsOf(s, path, isResourceRoot, false);
}

function defaultsOf(s: Props, path: string, embedded: boolean, insideMeta: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resourceRoot = embedded || s['x-kubernetes-embedded-resource'] === true;
  if (resourceRoot) insideMeta = false;
  if (s.default !== undefined && s.default !== null && !insideMeta) {
    const node = fromJSONSchemaProps(s);
    const at = childPath(path, 'default');
    const pruned = JSON.parse(JSON.stringify(s.default)) as unknown;
    pruneStructural(pruned, node, undefined, resourceRoot);
    if (!deepEqual(pruned, s.default)) errs.push(fieldErrors.invalid(at, s.default, 'must not have unknown fields'));
    else {
      for (const e of validateCustomResource(s.default, node)) {
        errs.push({ ...e, field: e.field === '<nil>' ? at : `${at}.${e.field}` });
      }
    }
  }
  if (isProps(s.items)) errs.push(...defaultsOf(s.items, childPath(path, 'items'), false, insideMeta));
  for (const [key, prop] of sortedProperties(s)) {
    const subMeta = insideMeta || (resourceRoot && META_FIELDS.has(key));
    errs.push(...defaultsOf(prop, keyPath(childPath(path, 'properties'), key), false, subMeta));
  }
  return errs;
}
