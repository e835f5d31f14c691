// The patch package's public surface: JSON patch, merge patch and strategic
// merge patch as kube-apiserver 1.32 applies them.

export {
  APPLY_PATCH_YAML_TYPE,
  applyPatch,
  applyPatchDetailed,
  JSON_PATCH_TYPE,
  MERGE_PATCH_TYPE,
  PatchApplyFailed,
  patchInvalid,
  patchTypeFromContentType,
  STRATEGIC_MERGE_PATCH_TYPE,
  supportedPatchTypes,
  type ApplyPatchOptions,
  type FieldValidation,
  type PatchKind,
  type PatchResult,
} from './apply-patch';
export { applyJsonPatchOperations, JsonPatchApplyError, JSON_PATCH_MAX_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS } from './json-patch';
export { applyMergePatch, MergePatchError } from './merge-patch';
export { strategicMergePatch, type SmpSchema } from './strategic-merge-patch';
export { StrategicMergePatchError, type MergePatchSentinel } from './smp-errors';
export { GoJsonSyntaxError, parseGoJson, RawScalar, unwrapRaw } from './go-json';
export { goJsonMarshal, goSprint } from './go-format';
