// rbac.authorization.k8s.io/v1: roles, clusterroles, rolebindings,
// clusterrolebindings. Names are path segments; rules need verbs and either
// resources with API groups or non-resource URLs; a binding's roleRef may
// never change. Roles print NAME / CREATED AT, bindings ROLE / AGE and with
// -o wide USERS / GROUPS / SERVICEACCOUNTS.

import { fieldErrors, GoLiteral, type FieldError } from '../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, TableDefinition } from '../../types';
import { deepEqual } from '../../validation/deep-equal';
import { isDNS1123Subdomain, nameIsPathSegment } from '../../validation/names';
import { validateNamespaceName } from '../../validation/object-meta';
import { defineResource, version } from '../common/define';
import { goStringSliceText } from '../common/go-format';
import { standardStrategy } from '../common/strategy';
import { age, AGE_COLUMN, arr, col, NAME_COLUMN, rec, str, table, wide } from '../common/table';
import { validateLabelSelector } from '../common/workload';

type Obj = Record<string, unknown>;
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (arr(rule.verbs).length === 0) errs.push(fieldErrors.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const nonResourceURLs = arr(rule.nonResourceURLs);
  if (nonResourceURLs.length > 0) {
    const value = new GoLiteral(goStringSliceText(rule.nonResourceURLs));
    if (namespaced) errs.push(fieldErrors.invalid(`${path}.nonResourceURLs`, value, 'namespaced rules cannot apply to non-resource URLs'));
    if (arr(rule.apiGroups).length || arr(rule.resources).length || arr(rule.resourceNames).length) {
      errs.push(fieldErrors.invalid(`${path}.nonResourceURLs`, value, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arr(rule.apiGroups).length === 0) errs.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (arr(rule.resources).length === 0) errs.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  return arr(obj.rules).flatMap((r, i) => validatePolicyRule(rec(r), namespaced, `rules[${i}]`));
}

function validateClusterRole(obj: KubeObject): FieldError[] {
  const errs = validateRules(obj, false);
  if (obj.aggregationRule !== undefined && obj.aggregationRule !== null) {
    const selectors = arr(rec(obj.aggregationRule).clusterRoleSelectors);
    if (selectors.length === 0) errs.push(fieldErrors.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(s, `aggregationRule.clusterRoleSelectors[${i}]`)));
  }
  return errs;
}

function defaultBinding(b: KubeObject): void {
  const roleRef = rec(b.roleRef);
  if (!roleRef.apiGroup) roleRef.apiGroup = RBAC_GROUP;
  b.roleRef = roleRef;
  for (const s of arr(b.subjects).map(rec)) {
    if (!s.apiGroup) {
      // A ServiceAccount keeps the empty group, which omitempty leaves out of the encoded object.
      if (s.kind === 'ServiceAccount') delete s.apiGroup;
      else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
    }
  }
}

function validateSubject(s: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s.name);
  if (!name) errs.push(fieldErrors.required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name) for (const msg of isDNS1123Subdomain(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, msg));
      if (str(s.apiGroup) !== '') errs.push(fieldErrors.notSupported(`${path}.apiGroup`, s.apiGroup, ['']));
      if (!namespaced && !str(s.namespace)) errs.push(fieldErrors.required(`${path}.namespace`));
      if (str(s.namespace)) for (const msg of validateNamespaceName(str(s.namespace), false)) errs.push(fieldErrors.invalid(`${path}.namespace`, s.namespace, msg));
      break;
    case 'User':
    case 'Group':
      if (s.apiGroup !== RBAC_GROUP) errs.push(fieldErrors.notSupported(`${path}.apiGroup`, s.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErrors.notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const roleRef = rec(b.roleRef);
  if (roleRef.apiGroup !== RBAC_GROUP) errs.push(fieldErrors.notSupported('roleRef.apiGroup', roleRef.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(roleRef.kind))) errs.push(fieldErrors.notSupported('roleRef.kind', roleRef.kind ?? '', kinds));
  const name = str(roleRef.name);
  if (!name) errs.push(fieldErrors.required('roleRef.name'));
  else for (const msg of nameIsPathSegment(name, false)) errs.push(fieldErrors.invalid('roleRef.name', name, msg));
  arr(b.subjects).forEach((s, i) => errs.push(...validateSubject(rec(s), namespaced, `subjects[${i}]`)));
  return errs;
}

/** The roleRef of a binding is fixed: a different role needs a new binding. */
function validateRoleRefUpdate(b: KubeObject, old: KubeObject): FieldError[] {
  if (deepEqual(b.roleRef, old.roleRef)) return [];
  const r = rec(b.roleRef);
  const literal = new GoLiteral(`rbac.RoleRef{APIGroup:${JSON.stringify(str(r.apiGroup))}, Kind:${JSON.stringify(str(r.kind))}, Name:${JSON.stringify(str(r.name))}}`);
  return [fieldErrors.invalid('roleRef', literal, 'cannot change roleRef')];
}

/** Roles print like the default table: Name and Created At (a date). */
export const ROLE_TABLE: TableDefinition = {
  columns: [NAME_COLUMN, { name: 'Created At', type: 'date', description: 'When the object was created', priority: 0 }],
  cells: (o) => [o.metadata?.name ?? '', o.metadata?.creationTimestamp ?? '0001-01-01T00:00:00Z'],
};

function subjectStrings(b: KubeObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of arr(b.subjects).map(rec)) {
    if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
    else if (s.kind === 'ServiceAccount') sas.push(`${str(s.namespace)}/${str(s.name)}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export const BINDING_TABLE = table(
  [
    col('Role', 'string', 'Kind/name of the bound role'),
    AGE_COLUMN,
    wide('Users', 'string', 'Users bound'),
    wide('Groups', 'string', 'Groups bound'),
    wide('ServiceAccounts', 'string', 'Namespace/name of bound service accounts'),
  ],
  (b, now) => {
    const r = rec(b.roleRef);
    return [`${str(r.kind)}/${str(r.name)}`, age(b, now), ...subjectStrings(b)];
  },
);

const CLUSTER_ROLE_BINDING_TABLE = table(
  [
    col('Role', 'string', 'Kind/name of the bound role'),
    AGE_COLUMN,
    wide('Users', 'string', 'Users bound'),
    wide('Groups', 'string', 'Groups bound'),
    wide('ServiceAccounts', 'string', 'Namespace/name of bound service accounts'),
  ],
  (b, now) => BINDING_TABLE.cells(b, now).slice(1),
);

export const rolesResource: ResourceDefinition = defineResource({
  group: RBAC_GROUP,
  plural: 'roles',
  kind: 'Role',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.rbac.v1.Role', { table: ROLE_TABLE })],
  strategy: standardStrategy({ namespaced: true, nameRule: nameIsPathSegment, validate: (o) => validateRules(o, true) }),
});

export const clusterRolesResource: ResourceDefinition = defineResource({
  group: RBAC_GROUP,
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.rbac.v1.ClusterRole', { table: ROLE_TABLE })],
  strategy: standardStrategy({ namespaced: false, nameRule: nameIsPathSegment, validate: (o) => validateClusterRole(o) }),
});

export const roleBindingsResource: ResourceDefinition = defineResource({
  group: RBAC_GROUP,
  plural: 'rolebindings',
  kind: 'RoleBinding',
  namespaced: true,
  versions: [version('v1', 'io.k8s.api.rbac.v1.RoleBinding', { table: BINDING_TABLE })],
  strategy: standardStrategy({
    namespaced: true,
    nameRule: nameIsPathSegment,
    default: (o) => defaultBinding(o),
    validate: (o) => validateBinding(o, true),
    validateUpdate: (o, old) => validateRoleRefUpdate(o, old),
  }),
});

export const clusterRoleBindingsResource: ResourceDefinition = defineResource({
  group: RBAC_GROUP,
  plural: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
  namespaced: false,
  versions: [version('v1', 'io.k8s.api.rbac.v1.ClusterRoleBinding', { table: CLUSTER_ROLE_BINDING_TABLE })],
  strategy: standardStrategy({
    namespaced: false,
    nameRule: nameIsPathSegment,
    default: (o) => defaultBinding(o),
    validate: (o) => validateBinding(o, false),
    validateUpdate: (o, old) => validateRoleRefUpdate(o, old),
  }),
});

export function rbacResources(): ResourceDefinition[] {
  return [clusterRoleBindingsResource, clusterRolesResource, roleBindingsResource, rolesResource];
}
