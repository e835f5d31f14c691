// Admission of a write through /scale (built-in and custom resources): kube's
// update and patch handlers admit the Scale, not the parent. The run's
// mutating phase is called by the scale handler on the new Scale (with the
// current one as the old object) before its replicas reach the parent; the
// validating phase, which resource-store calls with the parent objects, sees
// them converted back to Scales (kube's toScaleUpdateValidation).

import type { KubeObject, SubresourceDefinition } from '../../kinds/types';
import { AdmissionRun, writeOptionsObject, type AdmissionHooks } from '../../admission/request';
import type { RequestScope, ServerContext } from '../context';
import { requestRecord } from '../handlers/request-record';
import type { WriteQueryOptions } from '../write-options';

export interface ScaleAdmission {
  /** Call `run.mutate(newScale, oldScale)` in the update's transform. */
  readonly run: AdmissionRun;
  /** For resource-store (WriteOptions.admission): validation on Scales. */
  readonly hooks: AdmissionHooks;
}

export function scaleAdmission(
  ctx: ServerContext,
  scope: RequestScope,
  sub: SubresourceDefinition,
  options: WriteQueryOptions,
  optionsKind: 'UpdateOptions' | 'PatchOptions',
  toScale: (parent: KubeObject) => KubeObject,
): ScaleAdmission {
  const run = new AdmissionRun(ctx, {
    served: scope.served,
    namespace: scope.route.namespace,
    name: scope.route.name,
    subresource: scope.route.subresource,
    dryRun: options.dryRun,
    options: writeOptionsObject(optionsKind, options),
    kind: { group: sub.group ?? 'autoscaling', version: sub.version ?? 'v1', kind: 'Scale' },
    recorder: requestRecord(scope.request),
  });
  return {
    run,
    hooks: {
      // The mutating phase already ran on the Scale.
      mutate: async () => undefined,
      validate: (obj, old) => run.validate(toScale(obj), old ? toScale(old) : undefined),
      deleting: async () => undefined,
    },
  };
}
