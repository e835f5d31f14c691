// The internal (hub) form of a CRD spec that apiextensions validates: when
// every version carries the same schema, subresources, printer columns or
// selectable fields, conversion from v1 lifts them to the top level and
// clears them in the versions. That is why errors about a single-version
// CRD's schema read `spec.validation.openAPIV3Schema…` and not
// `spec.versions[0].schema…`.

import { GoLiteral } from '../errors/field-errors';
import { deepEqual } from '../kinds/validation/deep-equal';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
} from './types';

export interface InternalValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: InternalValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface InternalConversion {
  strategy: string;
  webhookClientConfig?: Record<string, unknown>;
  conversionReviewVersions?: string[];
}

export interface InternalSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: string;
  version: string;
  versions: InternalVersion[];
  validation?: InternalValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
  conversion?: InternalConversion;
  preserveUnknownFields: boolean;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Go's semantic equality treats nil and empty slices alike. */
function norm<T>(x: T[] | undefined): T[] | undefined {
  return Array.isArray(x) && x.length ? x : undefined;
}

export function toInternalSpec(spec: CustomResourceDefinitionSpec | undefined): InternalSpec {
  const s = isObject(spec) ? spec : {};
  const versions: InternalVersion[] = (Array.isArray(s.versions) ? s.versions : []).map((raw) => {
    const v = isObject(raw) ? raw : {};
    const out: InternalVersion = { name: typeof v.name === 'string' ? v.name : '', served: v.served === true, storage: v.storage === true, deprecated: v.deprecated === true };
    if (typeof v.deprecationWarning === 'string') out.deprecationWarning = v.deprecationWarning;
    if (isObject(v.schema)) out.schema = v.schema as InternalValidation;
    if (isObject(v.subresources)) out.subresources = v.subresources;
    const columns = norm(v.additionalPrinterColumns as CustomResourceColumnDefinition[] | undefined);
    if (columns) out.additionalPrinterColumns = columns;
    const fields = norm(v.selectableFields as SelectableField[] | undefined);
    if (fields) out.selectableFields = fields;
    return out;
  });
  const internal: InternalSpec = {
    group: typeof s.group === 'string' ? s.group : '',
    names: isObject(s.names) ? s.names : {},
    scope: typeof s.scope === 'string' ? s.scope : '',
    version: versions[0]?.name ?? '',
    versions,
    preserveUnknownFields: s.preserveUnknownFields === true,
  };
  if (isObject(s.conversion)) {
    const c = s.conversion;
    const conversion: InternalConversion = { strategy: typeof c.strategy === 'string' ? c.strategy : '' };
    if (isObject(c.webhook)) {
      if (isObject(c.webhook.clientConfig)) conversion.webhookClientConfig = c.webhook.clientConfig;
      if (Array.isArray(c.webhook.conversionReviewVersions)) conversion.conversionReviewVersions = c.webhook.conversionReviewVersions.map(String);
    }
    internal.conversion = conversion;
  }
  if (versions.length === 0) return internal;
  const lift = <K extends 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields'>(key: K): InternalVersion[K] | undefined => {
    const first = versions[0]![key];
    if (!versions.every((v) => deepEqual(v[key], first))) return undefined;
    for (const v of versions) delete v[key];
    return first;
  };
  const validation = lift('schema');
  if (validation) internal.validation = validation;
  const subresources = lift('subresources');
  if (subresources) internal.subresources = subresources;
  const columns = lift('additionalPrinterColumns');
  if (columns) internal.additionalPrinterColumns = columns;
  const fields = lift('selectableFields');
  if (fields) internal.selectableFields = fields;
  return internal;
}

/** Go's %q for the common cases. */
function q(s: string): string {
  return JSON.stringify(s);
}

let fakeAddress = 0xc000a10000;
/** Go prints a non-nil pointer inside %#v as its address, which differs per run; an address-like stand-in is shown. */
function pointer(type: string, present: boolean): string {
  if (!present) return `(*${type})(nil)`;
  fakeAddress += 0x40;
  return `(*${type})(0x${fakeAddress.toString(16)})`;
}

function columnsLiteral(columns: CustomResourceColumnDefinition[] | undefined): string {
  if (!columns) return '[]apiextensions.CustomResourceColumnDefinition(nil)';
  const items = columns.map(
    (c) =>
      `apiextensions.CustomResourceColumnDefinition{Name:${q(c.name ?? '')}, Type:${q(c.type ?? '')}, Format:${q(c.format ?? '')}, Description:${q(c.description ?? '')}, Priority:${c.priority ?? 0}, JSONPath:${q(c.jsonPath ?? '')}}`,
  );
  return `[]apiextensions.CustomResourceColumnDefinition{${items.join(', ')}}`;
}

function selectableLiteral(fields: SelectableField[] | undefined): string {
  if (!fields) return '[]apiextensions.SelectableField(nil)';
  return `[]apiextensions.SelectableField{${fields.map((f) => `apiextensions.SelectableField{JSONPath:${q(f.jsonPath ?? '')}}`).join(', ')}}`;
}

/** %#v of the internal versions, as field.Invalid prints spec.versions. */
export function versionsLiteral(versions: InternalVersion[]): GoLiteral {
  if (versions.length === 0) return new GoLiteral('[]apiextensions.CustomResourceDefinitionVersion(nil)');
  const items = versions.map(
    (v) =>
      `apiextensions.CustomResourceDefinitionVersion{Name:${q(v.name)}, Served:${v.served}, Storage:${v.storage}, Deprecated:${v.deprecated}, ` +
      `DeprecationWarning:${pointer('string', v.deprecationWarning !== undefined)}, Schema:${pointer('apiextensions.CustomResourceValidation', v.schema !== undefined)}, ` +
      `Subresources:${pointer('apiextensions.CustomResourceSubresources', v.subresources !== undefined)}, AdditionalPrinterColumns:${columnsLiteral(v.additionalPrinterColumns)}, ` +
      `SelectableFields:${selectableLiteral(v.selectableFields)}}`,
  );
  return new GoLiteral(`[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

/** %#v of a []string, nil when empty. */
export function stringsLiteral(values: readonly string[] | undefined): GoLiteral {
  if (!values || values.length === 0) return new GoLiteral('[]string(nil)');
  return new GoLiteral(`[]string{${values.map(q).join(', ')}}`);
}
