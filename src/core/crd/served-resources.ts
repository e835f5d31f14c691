// An Established CRD as the ResourceDefinitions the registry serves: its
// accepted names, scope, every served version with its inline schema and its
// Table, the status and scale subresources, selectable fields, the custom
// resource strategy, strategic merge patch refused, and conversion between
// versions with strategy None (only apiVersion changes).
//
// Versions whose subresources or selectable fields differ become separate
// definitions of the same resource (each serving its own versions, all
// sharing the storage version), since a ResourceDefinition has one set.

import type { KubeObject, ResourceDefinition, ResourceVersionDefinition, SubresourceDefinition, Verb } from '../kinds/types';
import { fromJSONSchemaProps } from '../schema/crd-schema';
import type { SchemaNode } from '../schema/types';
import { isConditionTrue, TERMINATING } from './conditions';
import { customResourceStrategy, nestedField, type ScalePaths } from './custom-resource-strategy';
import { printerColumnsTable } from './printer-columns';
import { CUSTOM_RESOURCE_SCALE_HANDLER } from './scale';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, CustomResourceSubresources, SelectableField } from './types';

const VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const GET_PATCH_UPDATE: readonly Verb[] = ['get', 'patch', 'update'];

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The value of a selectable field as a field selector compares it (strings, booleans and integers as text). */
function selectableValue(obj: KubeObject, jsonPath: string): string {
  const r = nestedField(obj, jsonPath.replace(/^\./, '').split('.'));
  if (!r.found || r.value === null || r.value === undefined) return '';
  if (typeof r.value === 'string') return r.value;
  if (typeof r.value === 'boolean' || typeof r.value === 'number') return String(r.value);
  return '';
}

function fieldSelectors(fields: readonly SelectableField[] | undefined): ResourceDefinition['fieldSelectors'] {
  if (!fields?.length) return undefined;
  const out: Record<string, (obj: KubeObject) => string | undefined> = {};
  for (const f of fields) {
    const path = f.jsonPath ?? '';
    if (!path) continue;
    out[path.replace(/^\./, '')] = (obj) => selectableValue(obj, path);
  }
  return out;
}

function subresourcesOf(kind: string, sub: CustomResourceSubresources | undefined): { defs: SubresourceDefinition[]; status: boolean; scale?: ScalePaths } {
  const defs: SubresourceDefinition[] = [];
  const status = isObject(sub) && sub.status !== undefined && sub.status !== null;
  if (status) defs.push({ name: 'status', kind, verbs: GET_PATCH_UPDATE, type: 'status' });
  let scale: ScalePaths | undefined;
  if (isObject(sub) && isObject(sub.scale)) {
    const s = sub.scale as { specReplicasPath?: unknown; statusReplicasPath?: unknown; labelSelectorPath?: unknown };
    const text = (x: unknown) => (typeof x === 'string' ? x : '');
    scale = {
      specReplicasPath: text(s.specReplicasPath),
      statusReplicasPath: text(s.statusReplicasPath),
      ...(text(s.labelSelectorPath) ? { labelSelectorPath: text(s.labelSelectorPath) } : {}),
    };
    defs.push({ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: GET_PATCH_UPDATE, type: 'custom', handler: CUSTOM_RESOURCE_SCALE_HANDLER, scale });
  }
  return { defs, status, scale };
}

/** Versions that can share one ResourceDefinition: same subresources and selectable fields. */
function signature(v: CustomResourceDefinitionVersion): string {
  return JSON.stringify([v.subresources ?? null, v.selectableFields ?? null]);
}

/** The ResourceDefinitions serving a CRD's custom resources (empty when it serves nothing). */
export function servedDefinitionsFor(crd: CustomResourceDefinition): ResourceDefinition[] {
  const spec = crd.spec ?? {};
  const names = crd.status?.acceptedNames ?? {};
  const group = spec.group ?? '';
  const plural = names.plural || spec.names?.plural || '';
  const kind = names.kind || spec.names?.kind || '';
  const versions = (spec.versions ?? []).filter((v) => isObject(v) && v.name);
  const storage = versions.find((v) => v.storage)?.name ?? versions[0]?.name;
  if (!plural || !kind || !storage) return [];
  const schemas = new Map<string, SchemaNode>();
  const rawSchemas = new Map<string, unknown>();
  for (const v of versions) {
    schemas.set(v.name!, fromJSONSchemaProps(v.schema?.openAPIV3Schema));
    rawSchemas.set(v.name!, v.schema?.openAPIV3Schema);
  }
  const terminating = isConditionTrue(crd, TERMINATING);
  const namespaced = spec.scope !== 'Cluster';

  const groups = new Map<string, CustomResourceDefinitionVersion[]>();
  for (const v of versions) {
    if (!v.served) continue;
    const key = signature(v);
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const out: ResourceDefinition[] = [];
  for (const members of groups.values()) {
    const first = members[0]!;
    const served = new Set(members.map((v) => v.name!));
    const { defs, status, scale } = subresourcesOf(kind, first.subresources);
    const versionDefs: ResourceVersionDefinition[] = versions.map((v) => ({
      name: v.name!,
      served: served.has(v.name!),
      storage: v.name === storage,
      schema: schemas.get(v.name!)!,
      ...(v.deprecated ? { deprecated: true } : {}),
      ...(v.deprecated ? { deprecationWarning: v.deprecationWarning ?? `${group}/${v.name} ${kind} is deprecated` } : {}),
      table: printerColumnsTable(v.additionalPrinterColumns),
    }));
    const selectors = fieldSelectors(first.selectableFields);
    const definition: ResourceDefinition = {
      group,
      plural,
      singular: names.singular || spec.names?.singular || kind.toLowerCase(),
      kind,
      listKind: names.listKind || spec.names?.listKind || `${kind}List`,
      namespaced,
      ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
      ...(names.categories?.length ? { categories: names.categories } : {}),
      verbs: VERBS,
      versions: versionDefs,
      ...(defs.length ? { subresources: defs } : {}),
      strategy: customResourceStrategy({ group, plural, namespaced, schemas, rawSchemas, storageVersion: storage, statusEnabled: status, scale, terminating }),
      ...(selectors ? { fieldSelectors: selectors } : {}),
      noStrategicMerge: true,
      convert(obj: KubeObject, toVersion: string): KubeObject {
        // Conversion strategy None: the object is the same in every version.
        obj.apiVersion = `${group}/${toVersion}`;
        return obj;
      },
    };
    out.push(definition);
  }
  return out;
}
