// core/v1 pods: defaults (pod-spec/defaults.ts), validation on create and
// update, status Pending with the QoS class on create, the status,
// ephemeralcontainers, binding, eviction, log, exec, attach, portforward and
// proxy subresources (resize only with InPlacePodVerticalScaling), the
// printer columns, and the field selectors of PodToSelectableFields.

import { fieldErrors, type FieldError } from '../../../../errors/field-errors';
import type { KubeObject, ResourceDefinition, SubresourceDefinition } from '../../../types';
import { deepEqual } from '../../../validation/deep-equal';
import { isDNS1123Label } from '../../../validation/names';
import { customSubresource, defineResource, GET_PATCH_UPDATE, statusSubresource, version } from '../../common/define';
import { clone, keepFields, standardStrategy } from '../../common/strategy';
import { arr, rec, str } from '../../common/table';
import { defaultContainer, defaultPod } from '../pod-spec/defaults';
import { validatePodSpec } from '../pod-spec/validation';
import { podGracePeriod } from './graceful-deletion';
import { podQOSClass } from './qos';
import { POD_TABLE } from './table';
import { validatePodSpecUpdate } from './update-validation';

type Obj = Record<string, unknown>;

const SCHEDULING_GATED_CONDITION = {
  type: 'PodScheduled',
  status: 'False',
  reason: 'SchedulingGated',
  message: 'Scheduling is blocked due to non-empty scheduling gates',
};

function validatePod(pod: KubeObject): FieldError[] {
  return [...validatePodSpec(pod.spec, 'spec'), ...containersOnlyForPod(pod.spec)];
}

/**
 * validateContainersOnlyForPod / validateInitContainersOnlyForPod: checks a
 * pod gets that a pod template does not (templates may carry " " as a token).
 */
function containersOnlyForPod(spec: unknown): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['containers', 'initContainers']) {
    arr(rec(spec)[field]).forEach((c, i) => {
      const image = rec(c).image;
      if (typeof image === 'string' && image.length !== image.trim().length) {
        errs.push(fieldErrors.invalid(`spec.${field}[${i}].image`, image, 'must not have leading or trailing whitespace'));
      }
    });
  }
  return errs;
}

function validatePodCreate(pod: KubeObject): FieldError[] {
  const errs = validatePod(pod);
  if (arr(rec(pod.spec).ephemeralContainers).length > 0) errs.push(fieldErrors.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  return errs;
}

/** ValidatePodStatusUpdate: the node name may not change; a few status fields are checked. */
function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = rec(pod.status);
  const oldStatus = rec(old.status);
  const phase = str(status.phase);
  const oldPhase = str(oldStatus.phase);
  // A pod that reached a terminal phase stays there.
  if ((oldPhase === 'Succeeded' || oldPhase === 'Failed') && phase !== oldPhase) {
    errs.push(fieldErrors.forbidden('status.phase', `cannot transition from ${oldPhase} to ${phase}`));
  }
  const podIPs = arr(status.podIPs).map(rec);
  const seen = new Set<string>();
  podIPs.forEach((ip, i) => {
    const value = str(ip.ip);
    if (seen.has(value)) errs.push(fieldErrors.duplicate(`status.podIPs[${i}]`, value));
    seen.add(value);
  });
  return errs;
}

/** Only spec.ephemeralContainers changes through pods/ephemeralcontainers; existing ones may not be changed. */
function prepareEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): void {
  const ephemeral = rec(pod.spec).ephemeralContainers;
  pod.spec = clone(old.spec);
  if (ephemeral === undefined) delete (pod.spec as Obj).ephemeralContainers;
  else (pod.spec as Obj).ephemeralContainers = ephemeral;
  keepFields(pod, old, ['status']);
}

function validateEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const next = arr(rec(pod.spec).ephemeralContainers).map(rec);
  const prev = arr(rec(old.spec).ephemeralContainers).map(rec);
  const byName = new Map(next.map((c) => [str(c.name), c]));
  for (const o of prev) {
    const n = byName.get(str(o.name));
    if (!n) {
      errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers "${str(o.name)}" may not be removed\n`));
    } else if (!deepEqual(n, o)) {
      errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers "${str(o.name)}" may not be changed\n`));
    }
  }
  const taken = new Set([...arr(rec(pod.spec).containers), ...arr(rec(pod.spec).initContainers)].map((c) => str(rec(c).name)));
  const names = new Set<string>();
  next.forEach((c, i) => {
    const name = str(c.name);
    const path = `spec.ephemeralContainers[${i}]`;
    if (!name) errs.push(fieldErrors.required(`${path}.name`));
    else for (const msg of isDNS1123Label(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, msg));
    if (taken.has(name) || names.has(name)) errs.push(fieldErrors.duplicate(`${path}.name`, name));
    names.add(name);
    if (!str(c.image)) errs.push(fieldErrors.required(`${path}.image`));
    for (const forbidden of ['ports', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resources']) {
      const v = c[forbidden];
      if (v !== undefined && v !== null && !(typeof v === 'object' && Object.keys(v).length === 0)) {
        errs.push(fieldErrors.forbidden(`${path}.${forbidden}`, `cannot be set for an Ephemeral Container`));
      }
    }
  });
  return errs;
}

export const POD_SUBRESOURCES: SubresourceDefinition[] = [
  customSubresource('attach', 'PodAttachOptions', ['create', 'get'], 'pod-attach'),
  customSubresource('binding', 'Binding', ['create'], 'pod-binding'),
  { name: 'ephemeralcontainers', kind: 'Pod', verbs: GET_PATCH_UPDATE, type: 'status', fields: ['spec'] },
  customSubresource('eviction', 'Eviction', ['create'], 'pod-eviction', { group: 'policy', version: 'v1' }),
  customSubresource('exec', 'PodExecOptions', ['create', 'get'], 'pod-exec'),
  customSubresource('log', 'Pod', ['get'], 'pod-log'),
  customSubresource('portforward', 'PodPortForwardOptions', ['create', 'get'], 'pod-portforward'),
  customSubresource('proxy', 'PodProxyOptions', ['create', 'delete', 'get', 'patch', 'update'], 'pod-proxy'),
  statusSubresource('Pod'),
];

/** pods/resize exists only with the InPlacePodVerticalScaling gate (alpha, off in 1.32). */
export const POD_RESIZE_SUBRESOURCE: SubresourceDefinition = { name: 'resize', kind: 'Pod', verbs: GET_PATCH_UPDATE, type: 'status', fields: ['spec'] };

export function podsResource(options: { inPlacePodVerticalScaling?: boolean } = {}): ResourceDefinition {
  const subresources = [...POD_SUBRESOURCES];
  if (options.inPlacePodVerticalScaling) subresources.splice(subresources.length - 1, 0, POD_RESIZE_SUBRESOURCE);
  return defineResource({
    group: '',
    plural: 'pods',
    kind: 'Pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    versions: [version('v1', 'io.k8s.api.core.v1.Pod', { table: POD_TABLE })],
    subresources,
    strategy: {
      // CheckGracefulDelete: a pod on a node is given its grace period to stop.
      gracefulDeletion: podGracePeriod,
      ...standardStrategy({
        namespaced: true,
        statusFields: ['status'],
        default: (obj) => defaultPod(obj),
        initialStatus: (obj) => {
          const status: Obj = { phase: 'Pending', qosClass: podQOSClass(obj.spec) };
          if (arr(rec(obj.spec).schedulingGates).length > 0) status.conditions = [{ ...SCHEDULING_GATED_CONDITION }];
          return status;
        },
        prepareForStatusUpdate: (obj, old) => {
          // pods/status may not touch owner references (old kubelets corrupted them) nor the deletion timestamp.
          obj.metadata = { ...(obj.metadata ?? {}) };
          if (old.metadata?.ownerReferences === undefined) delete obj.metadata.ownerReferences;
          else obj.metadata.ownerReferences = clone(old.metadata.ownerReferences);
        },
        prepareForSubresourceUpdate: (sub, obj, old) => {
          if (sub === 'ephemeralcontainers') prepareEphemeralContainersUpdate(obj, old);
          if (sub === 'resize') {
            // Only container resources change through resize.
            const containers = arr(rec(obj.spec).containers).map(rec);
            obj.spec = clone(old.spec);
            arr(rec(obj.spec).containers).forEach((c, i) => {
              const r = containers[i]?.resources;
              if (r !== undefined) (c as Obj).resources = r;
            });
            keepFields(obj, old, ['status']);
          }
        },
        validate: (obj) => validatePodCreate(obj),
        updateValidatesNew: false,
        validateUpdate: (obj, old) => [...validatePod(obj), ...validatePodSpecUpdate(obj, old)],
        validateStatusUpdate: (obj, old) => validatePodStatusUpdate(obj, old),
        validateSubresourceUpdate: (sub, obj, old) => (sub === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(obj, old) : []),
        warningsOnCreate: (obj) => podWarnings(obj),
        warningsOnUpdate: (obj) => podWarnings(obj),
      }),
    },
    fieldSelectors: {
      'spec.nodeName': (o) => str(rec(o.spec).nodeName),
      'spec.restartPolicy': (o) => str(rec(o.spec).restartPolicy),
      'spec.schedulerName': (o) => str(rec(o.spec).schedulerName),
      'spec.serviceAccountName': (o) => str(rec(o.spec).serviceAccountName),
      'spec.hostNetwork': (o) => String(rec(o.spec).hostNetwork === true),
      'status.phase': (o) => str(rec(o.status).phase),
      'status.podIP': (o) => str(rec(arr(rec(o.status).podIPs)[0]).ip),
      'status.nominatedNodeName': (o) => str(rec(o.status).nominatedNodeName),
    },
  });
}

/** A few of the warnings kube-apiserver attaches to pods (pkg/api/pod/warnings.go). */
function podWarnings(pod: KubeObject): string[] {
  const warnings: string[] = [];
  const spec = rec(pod.spec);
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    warnings.push(`spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  arr(spec.containers).forEach((c, i) => {
    const ports = arr(rec(c).ports).map(rec);
    const seen = new Map<string, number>();
    ports.forEach((p, j) => {
      const key = `${p.containerPort}/${p.protocol ?? 'TCP'}${p.hostIP ? `/${p.hostIP}` : ''}`;
      if (seen.has(key)) warnings.push(`spec.containers[${i}].ports[${j}]: duplicate port definition with spec.containers[${i}].ports[${seen.get(key)}]`);
      else seen.set(key, j);
    });
  });
  return warnings;
}

export { defaultContainer };
