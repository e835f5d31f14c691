// Validation of CustomResourceDefinitions as apiextensions-apiserver 1.32
// does it (ValidateCustomResourceDefinition / …Update), on the internal form
// of the spec (internal-spec.ts), with its field paths and messages: the
// name `<plural>.<group>`, group, scope, versions (exactly one storage
// version, unique DNS-1035 names), names, a structural openAPIV3Schema for
// every version, subresources, printer columns, selectable fields,
// conversion, stored versions, the API-approval annotation of protected
// groups, and the fields that may not change.

import { childPath, fieldErrors, GoLiteral, indexPath, type FieldError } from '../errors/field-errors';
import type { KubeObject } from '../kinds/types';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain, type NameValidator } from '../kinds/validation/names';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../kinds/validation/object-meta';
import { isConditionTrue, ESTABLISHED } from './conditions';
import { stringsLiteral, toInternalSpec, versionsLiteral, type InternalSpec, type InternalValidation, type InternalVersion } from './internal-spec';
import { validateDefaults, validateOpenAPISchema } from './schema-rules';
import { isProps, validateStructural } from './structural-schema';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
} from './types';

const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
const APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

/** The JSONSchemaProps fields, in Go struct order, with their JSON names (for the status-subresource root rule). */
const SCHEMA_FIELDS: [string, string][] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];
const ALLOWED_AT_ROOT_WITH_STATUS = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

interface Options {
  /** Spec names other than plural may not change once Established (scope, kind). */
  readonly requireImmutableNames: boolean;
  /** Every version needs a schema (false only when the stored CRD already lacked one). */
  readonly requireOpenAPISchema: boolean;
  readonly requireRecognizedConversionReviewVersion: boolean;
}

function isZero(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isProps(value)) return Object.keys(value).length === 0;
  return false;
}

function joined(errs: string[]): string {
  return errs.join(',');
}

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: CustomResourceDefinitionNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const plural = names.plural ?? '';
  const singular = names.singular ?? '';
  const kind = names.kind ?? '';
  const listKind = names.listKind ?? '';
  if (plural && isDNS1035Label(plural).length) errs.push(fieldErrors.invalid(childPath(path, 'plural'), plural, joined(isDNS1035Label(plural))));
  if (singular && isDNS1035Label(singular).length) errs.push(fieldErrors.invalid(childPath(path, 'singular'), singular, joined(isDNS1035Label(singular))));
  if (kind && isDNS1035Label(kind.toLowerCase()).length) {
    errs.push(fieldErrors.invalid(childPath(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${joined(isDNS1035Label(kind.toLowerCase()))}`));
  }
  if (listKind && isDNS1035Label(listKind.toLowerCase()).length) {
    errs.push(fieldErrors.invalid(childPath(path, 'listKind'), listKind, `may have mixed case, but should otherwise match: ${joined(isDNS1035Label(listKind.toLowerCase()))}`));
  }
  (names.shortNames ?? []).forEach((shortName, i) => {
    const e = isDNS1035Label(String(shortName));
    if (e.length) errs.push(fieldErrors.invalid(indexPath(childPath(path, 'shortNames'), i), shortName, joined(e)));
  });
  if (kind && kind === listKind) errs.push(fieldErrors.invalid(childPath(path, 'listKind'), listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((category, i) => {
    const e = isDNS1035Label(String(category));
    if (e.length) errs.push(fieldErrors.invalid(indexPath(childPath(path, 'categories'), i), category, joined(e)));
  });
  return errs;
}

/** validateSimpleJSONPath: a path must start with '.'. */
function simpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldErrors.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldErrors.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

export function validateColumn(col: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(fieldErrors.required(childPath(path, 'name')));
  const oneOf = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(fieldErrors.required(childPath(path, 'type'), oneOf));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(fieldErrors.invalid(childPath(path, 'type'), col.type, oneOf));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) {
    errs.push(fieldErrors.invalid(childPath(path, 'format'), col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  }
  // kube names the field by its Go name here.
  if (!col.jsonPath) errs.push(fieldErrors.required(childPath(path, 'JSONPath')));
  else errs.push(...simpleJSONPath(col.jsonPath, childPath(path, 'JSONPath')));
  return errs;
}

export function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  if (!isProps(sub?.scale)) return [];
  const scale = sub.scale as { specReplicasPath?: unknown; statusReplicasPath?: unknown; labelSelectorPath?: unknown };
  const errs: FieldError[] = [];
  const check = (key: 'specReplicasPath' | 'statusReplicasPath', under: '.spec.' | '.status.') => {
    const at = childPath(path, `scale.${key}`);
    const value = typeof scale[key] === 'string' ? (scale[key] as string) : '';
    if (!value) {
      errs.push(fieldErrors.required(at));
      return;
    }
    const simple = simpleJSONPath(value, at);
    if (simple.length) errs.push(...simple);
    else if (!value.startsWith(under)) errs.push(fieldErrors.invalid(at, value, `should be a json path under ${under.slice(0, -1)}`));
  };
  check('specReplicasPath', '.spec.');
  check('statusReplicasPath', '.status.');
  const selector = typeof scale.labelSelectorPath === 'string' ? scale.labelSelectorPath : '';
  if (selector) {
    const at = childPath(path, 'scale.labelSelectorPath');
    const simple = simpleJSONPath(selector, at);
    if (simple.length) errs.push(...simple);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(fieldErrors.invalid(at, selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

/** The schema node a selectable field's path names (no array notation), or an error text. */
function selectableFieldSchema(jsonPath: string, schema: JSONSchemaProps): { root: string; node?: JSONSchemaProps; error?: string } {
  if (!jsonPath.startsWith('.')) return { root: '', error: `must start with '.'` };
  const parts = jsonPath.slice(1).split('.');
  let node: JSONSchemaProps | undefined = schema;
  for (const part of parts) {
    if (!part || part.includes('[')) return { root: parts[0] ?? '', error: `invalid field path ${JSON.stringify(jsonPath)}` };
    const props: Record<string, unknown> = isProps(node?.properties) ? (node!.properties as Record<string, unknown>) : {};
    if (parts[0] === 'metadata' && node === schema) return { root: 'metadata', node: {} };
    if (Object.hasOwn(props, part) && isProps(props[part])) node = props[part] as JSONSchemaProps;
    else if (isProps(node?.additionalProperties)) node = node!.additionalProperties as JSONSchemaProps;
    else return { root: parts[0] ?? '', error: `does not refer to a valid field` };
  }
  return { root: parts[0] ?? '', node };
}

export function validateSelectableFields(fields: SelectableField[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = childPath(indexPath(path, i), 'jsonPath');
    const jsonPath = f.jsonPath ?? '';
    if (!jsonPath) {
      errs.push(fieldErrors.required(at));
      return;
    }
    const found = selectableFieldSchema(jsonPath, schema);
    if (found.error) {
      errs.push(fieldErrors.invalid(at, jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.root === 'metadata') errs.push(fieldErrors.invalid(at, jsonPath, 'must not point to fields in metadata'));
    const type = found.node?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(fieldErrors.invalid(at, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(jsonPath)) errs.push(fieldErrors.duplicate(at, jsonPath));
    else unique.add(jsonPath);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldErrors.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** A short %#v stand-in for a whole JSONSchemaProps (Go prints every field of the struct). */
function schemaLiteral(schema: JSONSchemaProps): GoLiteral {
  return new GoLiteral(`apiextensions.JSONSchemaProps{Type:${JSON.stringify(typeof schema.type === 'string' ? schema.type : '')}, …}`);
}

/** validateCustomResourceDefinitionValidation: the schema of one version (or of all, lifted). */
function validateValidation(validation: InternalValidation | undefined, statusEnabled: boolean, path: string): FieldError[] {
  if (!validation) return [];
  const errs: FieldError[] = [];
  const schema = validation.openAPIV3Schema;
  if (isProps(schema)) {
    const schemaPath = childPath(path, 'openAPIV3Schema');
    if (statusEnabled) {
      for (const [goName, jsonName] of SCHEMA_FIELDS) {
        const value = schema[jsonName];
        if (isZero(value)) continue;
        if (goName === 'Type') {
          if (value !== 'object') {
            errs.push(fieldErrors.invalid(`${schemaPath}.type`, value, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
            break;
          }
          continue;
        }
        if (!ALLOWED_AT_ROOT_WITH_STATUS.includes(goName)) {
          errs.push(
            fieldErrors.invalid(schemaPath, schemaLiteral(schema), `only [${ALLOWED_AT_ROOT_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`),
          );
          break;
        }
      }
    }
    if (schema.nullable === true) errs.push(fieldErrors.forbidden(`${schemaPath}.nullable`, 'nullable cannot be true at the root'));
    const structural = validateStructural(schema, schemaPath);
    if (structural.length) errs.push(...structural);
    else errs.push(...validateDefaults(schema, schemaPath, true));
    errs.push(...validateOpenAPISchema(schema, schemaPath, true));
  }
  return errs;
}

function validateDeprecationWarning(version: InternalVersion): string[] {
  const warning = version.deprecationWarning;
  if (!version.deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const out: string[] = [];
  if (new TextEncoder().encode(warning).length > 256) out.push('must be <= 256 characters long');
  if (warning.length === 0) out.push('must not be an empty string');
  let index = 0;
  for (const ch of warning) {
    if (/\p{Cc}/u.test(ch)) {
      out.push(`must only contain printable UTF-8 characters; control character found at index ${index}`);
      break;
    }
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      out.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    index += new TextEncoder().encode(ch).length;
  }
  return out;
}

function hasStatus(sub: CustomResourceSubresources | undefined): boolean {
  return isProps(sub) && sub.status !== undefined && sub.status !== null;
}

function subresourcesFor(spec: InternalSpec, version: InternalVersion): CustomResourceSubresources | undefined {
  return spec.versions.some((v) => v.subresources !== undefined) ? version.subresources : spec.subresources;
}

function validateVersion(version: InternalVersion, path: string, statusEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  for (const msg of validateDeprecationWarning(version)) errs.push(fieldErrors.invalid(childPath(path, 'deprecationWarning'), version.deprecationWarning ?? '', msg));
  errs.push(...validateValidation(version.schema, statusEnabled, childPath(path, 'schema')));
  errs.push(...validateSubresources(version.subresources, childPath(path, 'subresources')));
  (version.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, indexPath(childPath(path, 'additionalPrinterColumns'), i))));
  if (version.selectableFields?.length) {
    const schema = version.schema?.openAPIV3Schema;
    if (!isProps(schema)) {
      errs.push(fieldErrors.invalid(childPath(path, 'selectableFields'), '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    } else {
      errs.push(...validateSelectableFields(version.selectableFields, schema, childPath(path, 'selectableFields')));
    }
  }
  return errs;
}

function validateConversion(spec: InternalSpec, requireRecognized: boolean, path: string): FieldError[] {
  const conversion = spec.conversion;
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategies = ['None', 'Webhook'];
  if (!conversion.strategy) errs.push(fieldErrors.required(childPath(path, 'strategy')));
  else if (!strategies.includes(conversion.strategy)) errs.push(fieldErrors.notSupported(childPath(path, 'strategy'), conversion.strategy, strategies));
  if (conversion.strategy === 'Webhook') {
    const cc = conversion.webhookClientConfig;
    if (!cc) errs.push(fieldErrors.required(childPath(path, 'webhookClientConfig'), 'required when strategy is set to Webhook'));
    else if ((cc.url === undefined) === (cc.service === undefined)) {
      errs.push(fieldErrors.required(childPath(path, 'webhookClientConfig'), 'exactly one of url or service is required'));
    }
    const versions = conversion.conversionReviewVersions ?? [];
    const at = childPath(path, 'conversionReviewVersions');
    if (versions.length < 1) errs.push(fieldErrors.required(at));
    else {
      const seen = new Set<string>();
      let accepted = false;
      versions.forEach((v, i) => {
        if (seen.has(v)) {
          errs.push(fieldErrors.invalid(indexPath(at, i), v, 'duplicate version'));
          return;
        }
        seen.add(v);
        for (const msg of isDNS1035Label(v)) errs.push(fieldErrors.invalid(indexPath(at, i), v, msg));
        if (v === 'v1' || v === 'v1beta1') accepted = true;
      });
      if (requireRecognized && !accepted) errs.push(fieldErrors.invalid(at, stringsLiteral(versions), 'must include at least one of v1, v1beta1'));
    }
  } else {
    if (conversion.webhookClientConfig) errs.push(fieldErrors.forbidden(childPath(path, 'webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    if (conversion.conversionReviewVersions?.length) {
      errs.push(fieldErrors.forbidden(childPath(path, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

/** validateCustomResourceDefinitionSpec on the internal form. */
function validateSpec(spec: InternalSpec, opts: Options, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.group) errs.push(fieldErrors.required(childPath(path, 'group')));
  else if (isDNS1123Subdomain(spec.group).length) errs.push(fieldErrors.invalid(childPath(path, 'group'), spec.group, joined(isDNS1123Subdomain(spec.group))));
  else if (spec.group.split('.').length < 2) errs.push(fieldErrors.invalid(childPath(path, 'group'), spec.group, 'should be a domain with at least one dot'));

  const scopes = ['Cluster', 'Namespaced'];
  if (!spec.scope) errs.push(fieldErrors.required(childPath(path, 'scope')));
  else if (!scopes.includes(spec.scope)) errs.push(fieldErrors.notSupported(childPath(path, 'scope'), spec.scope, scopes));

  const versionsPath = childPath(path, 'versions');
  if (!spec.validation?.openAPIV3Schema) {
    spec.versions.forEach((v, i) => {
      if (isProps(v.schema?.openAPIV3Schema)) return;
      if (opts.requireOpenAPISchema) errs.push(fieldErrors.required(`${indexPath(versionsPath, i)}.schema.openAPIV3Schema`, 'schemas are required'));
      else if (v.served) errs.push(fieldErrors.required(`${indexPath(versionsPath, i)}.schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
    });
  }
  if (spec.preserveUnknownFields && specHasDefaults(spec)) {
    errs.push(fieldErrors.invalid(childPath(path, 'preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  spec.versions.forEach((version, i) => {
    if (version.storage) storageCount++;
    if (seen.has(version.name)) unique = false;
    else seen.add(version.name);
    const nameErrs = isDNS1035Label(version.name);
    if (nameErrs.length) errs.push(fieldErrors.invalid(childPath(indexPath(versionsPath, i), 'name'), version.name, joined(nameErrs)));
    errs.push(...validateVersion(version, indexPath(versionsPath, i), hasStatus(subresourcesFor(spec, version))));
  });
  if (!unique) errs.push(fieldErrors.invalid(versionsPath, versionsLiteral(spec.versions), 'must contain unique version names'));
  if (storageCount !== 1) errs.push(fieldErrors.invalid(versionsPath, versionsLiteral(spec.versions), 'must have exactly one version marked as storage version'));
  if (spec.version) {
    const e = isDNS1035Label(spec.version);
    if (e.length) errs.push(fieldErrors.invalid(childPath(path, 'version'), spec.version, joined(e)));
  }

  const names = spec.names;
  if (!names.plural) errs.push(fieldErrors.required(childPath(path, 'names.plural')));
  if (!names.singular) errs.push(fieldErrors.required(childPath(path, 'names.singular')));
  if (!names.kind) errs.push(fieldErrors.required(childPath(path, 'names.kind')));
  if (!names.listKind) errs.push(fieldErrors.required(childPath(path, 'names.listKind')));
  errs.push(...validateNames(names, childPath(path, 'names')));

  const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateValidation(spec.validation, anyStatus, childPath(path, 'validation')));
  errs.push(...validateSubresources(spec.subresources, childPath(path, 'subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((col, i) => errs.push(...validateColumn(col, indexPath(childPath(path, 'additionalPrinterColumns'), i))));
  if (spec.selectableFields?.length) {
    const schema = spec.validation?.openAPIV3Schema;
    if (!isProps(schema)) errs.push(fieldErrors.invalid(childPath(path, 'selectableFields'), '', 'selectableFields may only be set when validations.schema is included'));
    else errs.push(...validateSelectableFields(spec.selectableFields, schema, childPath(path, 'selectableFields')));
  }
  if (spec.conversion && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(fieldErrors.invalid(childPath(childPath(path, 'conversion'), 'strategy'), spec.conversion.strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec, opts.requireRecognizedConversionReviewVersion, childPath(path, 'conversion')));
  return errs;
}

function schemaHasDefaults(s: unknown): boolean {
  if (!isProps(s)) return false;
  if (s.default !== undefined && s.default !== null) return true;
  const children: unknown[] = [s.items, s.not, s.additionalProperties, ...(Array.isArray(s.allOf) ? s.allOf : []), ...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  if (isProps(s.properties)) children.push(...Object.values(s.properties));
  return children.some(schemaHasDefaults);
}

function specHasDefaults(spec: InternalSpec): boolean {
  return schemaHasDefaults(spec.validation?.openAPIV3Schema) || spec.versions.some((v) => schemaHasDefaults(v.schema?.openAPIV3Schema));
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(stored: string[] | undefined, spec: InternalSpec, path: string): FieldError[] {
  if (!stored || stored.length === 0) return [fieldErrors.invalid(path, stringsLiteral(stored), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of spec.versions) {
    const present = remaining.has(v.name);
    if (v.storage && !present) errs.push(fieldErrors.invalid(path, stringsLiteral(stored), `must have the storage version ${v.name}`));
    if (present) remaining.delete(v.name);
  }
  for (const [v, i] of [...remaining.entries()].sort((a, b) => a[1] - b[1])) {
    errs.push(
      fieldErrors.invalid(
        indexPath(path, i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function isProtectedGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

type ApprovalState = 'missing' | 'bypassed' | 'approved' | 'invalid';

function approvalState(annotations: Record<string, string> | undefined): { state: ApprovalState; reason: string } {
  const value = annotations?.[APPROVAL_ANNOTATION] ?? '';
  if (!value) {
    return { state: 'missing', reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL_ANNOTATION)}, see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/\s]+/.test(value)) return { state: 'approved', reason: `approved in ${value}` };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation ${JSON.stringify(APPROVAL_ANNOTATION)} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

function validateApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  const group = crd.spec?.group ?? '';
  if (!isProtectedGroup(group)) return [];
  const next = approvalState(crd.metadata?.annotations);
  if (old && approvalState(old.metadata?.annotations).state === next.state) return [];
  const at = `metadata.annotations[${APPROVAL_ANNOTATION}]`;
  if (next.state === 'missing') return [fieldErrors.required(at, next.reason)];
  if (next.state === 'invalid') return [fieldErrors.invalid(at, crd.metadata?.annotations?.[APPROVAL_ANNOTATION] ?? '', next.reason)];
  return [];
}

function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [fieldErrors.invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}

/** The name rule of a CRD: a DNS subdomain that equals spec.names.plural + "." + spec.group. */
function crdNameRule(crd: CustomResourceDefinition): NameValidator {
  return (name, prefix) => {
    const out = nameIsDNSSubdomain(name, prefix);
    if (name !== `${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`) out.push('must be spec.names.plural+"."+spec.group');
    return out;
  };
}

function allVersionsSpecifySchema(spec: InternalSpec): boolean {
  if (isProps(spec.validation?.openAPIV3Schema)) return true;
  return spec.versions.every((v) => isProps(v.schema?.openAPIV3Schema));
}

/** ValidateCustomResourceDefinition (create). */
export function validateCustomResourceDefinition(obj: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const spec = toInternalSpec(crd.spec);
  const opts: Options = { requireImmutableNames: false, requireOpenAPISchema: true, requireRecognizedConversionReviewVersion: true };
  return [
    ...validateObjectMeta(crd.metadata, false, crdNameRule(crd)),
    ...validateSpec(spec, opts, 'spec'),
    ...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames'),
    ...validateStoredVersions(crd.status?.storedVersions, spec, 'status.storedVersions'),
    ...validateApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

/** ValidateCustomResourceDefinitionUpdate. */
export function validateCustomResourceDefinitionUpdate(obj: KubeObject, oldObj: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const old = oldObj as CustomResourceDefinition;
  const spec = toInternalSpec(crd.spec);
  const oldSpec = toInternalSpec(old.spec);
  const oldReviewVersions = oldSpec.conversion?.conversionReviewVersions ?? [];
  const opts: Options = {
    requireImmutableNames: isConditionTrue(old, ESTABLISHED),
    requireOpenAPISchema: allVersionsSpecifySchema(oldSpec),
    requireRecognizedConversionReviewVersion: oldReviewVersions.length === 0 || oldReviewVersions.some((v) => v === 'v1' || v === 'v1beta1'),
  };
  const errs = [...validateObjectMetaUpdate(crd.metadata, old.metadata), ...validateSpec(spec, opts, 'spec')];
  if (opts.requireImmutableNames) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, 'spec.scope'));
    errs.push(...validateImmutableField(spec.names.kind ?? '', oldSpec.names.kind ?? '', 'spec.names.kind'));
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, 'spec.group'));
  errs.push(...validateImmutableField(spec.names.plural ?? '', oldSpec.names.plural ?? '', 'spec.names.plural'));
  errs.push(...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames'));
  errs.push(...validateStoredVersions(crd.status?.storedVersions, spec, 'status.storedVersions'));
  errs.push(...validateApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus. */
export function validateCustomResourceDefinitionStatusUpdate(obj: KubeObject, oldObj: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  return [...validateObjectMetaUpdate(crd.metadata, oldObj.metadata), ...validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames')];
}
