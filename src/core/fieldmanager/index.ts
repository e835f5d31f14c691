// Server-side apply and managed fields, as kube-apiserver 1.32 does them.
//
// Layers (each its own directory, each usable alone):
//   value/      JSON value order, equality and Go's printing of values (the Go
//               primitives themselves are shared: ../util/go)
//   fieldpath/  path elements, field sets (set algebra), FieldsV1 (de)serialization
//   schema/     the merge view of a SchemaNode (atoms)
//   typed/      validation, field sets of values, merge, compare, removal, schema changes
//   merge/      the updater: ownership, conflicts, pruning
//   manager/    kube-apiserver's field manager around it: managedFields entries,
//               identifiers, times, the 10-updater cap, client-side apply migration,
//               conflict errors, scale subresource, validation of entries
//
// The API layer calls:
//   applyPatch()            PATCH application/apply-patch+yaml (create or update)
//   updateManagedFields()   every other write: create, PUT, JSON/merge/strategic patches
//   decodeApplyBody()       the apply body → object (400 on what kube rejects)
//   defaultFieldManager()   the manager of a write without ?fieldManager
//   validateFieldManager(), validateManagedFields()   request and ObjectMeta validation
//   scaleToSubresource(), scaleToParent()             managed fields across /scale
//   ignoreManagedFieldsTimestamps()                   after admission, as kube does

export { applyPatch, updateManagedFields, gvkString, type ApplyInput, type UpdateInput, type FieldPaths } from './manager/field-manager';
export type { FieldManagerSchema } from './manager/schema-input';
export { decodeApplyBody } from './manager/apply-body';
export { defaultFieldManager, managerOrUserAgent } from './manager/user-agent';
export { validateFieldManager, validateManagedFields, FIELD_MANAGER_MAX_LENGTH } from './manager/validation';
export { scaleToSubresource, scaleToParent, SCALE_API_VERSION, type ReplicasPaths } from './manager/scale';
export { ignoreManagedFieldsTimestamps } from './manager/timestamps';
export { conflictError, conflictMessage, printManager } from './manager/conflict-error';
export { LAST_APPLIED_ANNOTATION } from './manager/last-applied';
export { decodeManagedFields, encodeManagedFields, type Managed } from './manager/managed';
export { buildManagerIdentifier, parseManagerIdentifier, type ManagerInfo } from './manager/identifier';
export { MAX_UPDATE_MANAGERS, OLD_UPDATES_MANAGER } from './manager/cap-managers';
export { FieldSet } from './fieldpath/set';
export { toFieldsV1, fromFieldsV1, type FieldsV1 } from './fieldpath/fields-v1';
export { pathString, type Path, type PathElement } from './fieldpath/element';
