// PodSpec validation (pkg/apis/core/validation ValidatePodSpec and the
// container, port, env, volume and resource checks under it), with the field
// paths and messages of 1.32. It covers what users commonly get wrong; rarely
// used corners (Windows host-process, seccomp annotations, …) are not checked.

import { fieldErrors, type FieldError } from '../../../../errors/field-errors';
import {
  inclusiveRangeError,

  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidPortName,
  isValidPortNum,
} from '../../../validation/names';
import { validateAnnotations, validateLabels } from '../../../validation/object-meta';
import { parseQuantity } from '../../common/quantity';
import { arr, rec, str } from '../../common/table';
import { VOLUME_SOURCE_FIELDS } from './defaults';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const objs = (v: unknown): Obj[] => arr(v).filter(isObj);

export const MAX_INT32 = 2147483647;

export function dns1123Label(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((msg) => fieldErrors.invalid(path, value, msg));
}
export function dns1123Subdomain(value: string, path: string): FieldError[] {
  return isDNS1123Subdomain(value).map((msg) => fieldErrors.invalid(path, value, msg));
}

/** An enumerated field: Required when empty, NotSupported outside `values`. */
export function validateEnum(value: unknown, path: string, values: readonly string[], required = true): FieldError[] {
  if (value === undefined || value === null || value === '') return required ? [fieldErrors.required(path)] : [];
  return values.includes(String(value)) ? [] : [fieldErrors.notSupported(path, value, values)];
}

const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(ports).forEach((port, i) => {
    const p = `${path}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const msg of msgs) errs.push(fieldErrors.invalid(`${p}.name`, name, msg));
      else if (names.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
    if (containerPort === 0) errs.push(fieldErrors.required(`${p}.containerPort`));
    else for (const msg of isValidPortNum(containerPort)) errs.push(fieldErrors.invalid(`${p}.containerPort`, containerPort, msg));
    const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
    if (hostPort !== 0) for (const msg of isValidPortNum(hostPort)) errs.push(fieldErrors.invalid(`${p}.hostPort`, hostPort, msg));
    if (!port.protocol) errs.push(fieldErrors.required(`${p}.protocol`));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(String(port.protocol))) errs.push(fieldErrors.notSupported(`${p}.protocol`, port.protocol, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

/** 1.32 has RelaxedEnvironmentVariableValidation on (beta): any printable ASCII but '='. */
const RELAXED_ENV_NAME_RE = /^[ -<>-~]+$/;

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(env).forEach((e, i) => {
    const p = `${path}[${i}]`;
    const name = str(e.name);
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    if (!name) errs.push(fieldErrors.invalid(`${p}.name`, name, 'environment variable name must be non-empty'));
    else if (!RELAXED_ENV_NAME_RE.test(name)) {
      errs.push(fieldErrors.invalid(`${p}.name`, name, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
    }
    if (isObj(e.valueFrom)) {
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => e.valueFrom && (e.valueFrom as Obj)[k] !== undefined);
      if (e.value) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'may not be specified when `value` is not empty'));
      if (sources.length === 0) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (sources.length > 1) errs.push(fieldErrors.invalid(`${p}.valueFrom`, '', 'may not have more than one field specified at a time'));
      const keyRef = rec(e.valueFrom.configMapKeyRef ?? e.valueFrom.secretKeyRef);
      const refName = e.valueFrom.configMapKeyRef !== undefined ? 'configMapKeyRef' : 'secretKeyRef';
      if (sources.length === 1 && (refName === sources[0])) {
        if (!str(keyRef.key)) errs.push(fieldErrors.required(`${p}.valueFrom.${refName}.key`));
        if (!str(keyRef.name)) errs.push(fieldErrors.required(`${p}.valueFrom.${refName}.name`));
      }
      if (sources[0] === 'fieldRef' && sources.length === 1 && !str(rec(e.valueFrom.fieldRef).fieldPath)) {
        errs.push(fieldErrors.required(`${p}.valueFrom.fieldRef.fieldPath`));
      }
    }
  });
  return errs;
}

function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(envFrom).forEach((e, i) => {
    const p = `${path}[${i}]`;
    if (e.prefix) for (const msg of isCIdentifierRelaxed(str(e.prefix))) errs.push(fieldErrors.invalid(`${p}.prefix`, e.prefix, msg));
    const count = (e.configMapRef !== undefined ? 1 : 0) + (e.secretRef !== undefined ? 1 : 0);
    if (count === 0) errs.push(fieldErrors.invalid(p, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(fieldErrors.invalid(p, '', 'may not have more than one field specified at a time'));
    for (const [ref, rp] of [[e.configMapRef, 'configMapRef'], [e.secretRef, 'secretRef']] as const) {
      if (!isObj(ref)) continue;
      const name = str(ref.name);
      if (!name) errs.push(fieldErrors.required(`${p}.${rp}.name`));
      else for (const msg of isDNS1123Subdomain(name)) errs.push(fieldErrors.invalid(`${p}.${rp}.name`, name, msg));
    }
  });
  return errs;
}

function isCIdentifierRelaxed(prefix: string): string[] {
  return RELAXED_ENV_NAME_RE.test(prefix) ? [] : ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
}

function validateVolumeMounts(mounts: unknown, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  objs(mounts).forEach((m, i) => {
    const p = `${path}[${i}]`;
    const name = str(m.name);
    if (!name) errs.push(fieldErrors.required(`${p}.name`));
    if (!volumes.has(name)) errs.push(fieldErrors.notFound(`${p}.name`, name));
    const mountPath = str(m.mountPath);
    if (!mountPath) errs.push(fieldErrors.required(`${p}.mountPath`));
    if (mountPoints.has(mountPath)) errs.push(fieldErrors.invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (m.subPath) errs.push(...validateLocalDescendingPath(str(m.subPath), `${p}.subPath`));
  });
  return errs;
}

function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldErrors.invalid(path, target, 'must be a relative path'));
  if (target.split(/[\\/]/).includes('..')) errs.push(fieldErrors.invalid(path, target, "must not contain '..'"));
  return errs;
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

function validateResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldErrors.invalid(path, name, msg));
  if (errs.length) return errs;
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) {
      return [fieldErrors.invalid(path, name, 'must be a standard resource type or fully qualified')];
    }
  }
  return [];
}

/** ValidateResourceRequirements: names, non-negative values, requests ≤ limits. */
export function validateResources(resources: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = rec(resources);
  const limits = rec(r.limits);
  const requests = rec(r.requests);
  for (const [name, q] of Object.entries(limits)) {
    const p = `${path}.limits[${name}]`;
    errs.push(...validateResourceName(name, p));
    errs.push(...validateQuantityValue(q, p));
  }
  for (const [name, q] of Object.entries(requests)) {
    const p = `${path}.requests[${name}]`;
    errs.push(...validateResourceName(name, p));
    errs.push(...validateQuantityValue(q, p));
    const limit = limits[name];
    const lv = parseQuantity(limit);
    const rv = parseQuantity(q);
    if (limit !== undefined && lv !== undefined && rv !== undefined && rv > lv) {
      errs.push(fieldErrors.invalid(p, String(q), `must be less than or equal to ${name} limit of ${String(limit)}`));
    }
  }
  return errs;
}

function validateQuantityValue(q: unknown, path: string): FieldError[] {
  const v = parseQuantity(q);
  if (v !== undefined && v < 0) return [fieldErrors.invalid(path, String(q), 'must be greater than or equal to 0')];
  return [];
}

function validateContainerCommon(c: Obj, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(fieldErrors.required(`${path}.name`));
  else errs.push(...dns1123Label(name, `${path}.name`));
  if (!str(c.image)) errs.push(fieldErrors.required(`${path}.image`));
  errs.push(...validateEnum(c.terminationMessagePolicy, `${path}.terminationMessagePolicy`, ['File', 'FallbackToLogsOnError']));
  errs.push(...validateContainerPorts(c.ports, `${path}.ports`));
  errs.push(...validateEnv(c.env, `${path}.env`));
  errs.push(...validateEnvFrom(c.envFrom, `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, `${path}.volumeMounts`));
  errs.push(...validateEnum(c.imagePullPolicy, `${path}.imagePullPolicy`, ['Always', 'IfNotPresent', 'Never']));
  errs.push(...validateResources(c.resources, `${path}.resources`));
  errs.push(...validateSecurityContext(c.securityContext, `${path}.securityContext`));
  return errs;
}

/** ValidateSecurityContext: the numeric ids and the privileged/escalation pairing. */
function validateSecurityContext(sc: unknown, path: string): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  for (const field of ['runAsUser', 'runAsGroup']) {
    const v = sc[field];
    if (typeof v === 'number' && (v < 0 || v > MAX_INT32)) errs.push(fieldErrors.invalid(`${path}.${field}`, v, inclusiveRangeError(0, MAX_INT32)));
  }
  if (sc.allowPrivilegeEscalation === false && sc.privileged === true) {
    errs.push(fieldErrors.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
  }
  if (sc.procMount !== undefined && sc.procMount !== null) errs.push(...validateEnum(sc.procMount, `${path}.procMount`, ['Default', 'Unmasked']));
  return errs;
}

function validateProbe(probe: unknown, path: string): FieldError[] {
  if (!isObj(probe)) return [];
  const errs: FieldError[] = [];
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => probe[h] !== undefined && probe[h] !== null);
  if (handlers.length === 0) errs.push(fieldErrors.required(path, 'must specify a handler type'));
  else if (handlers.length > 1) errs.push(fieldErrors.forbidden(`${path}.${handlers[1]}`, 'may not specify more than 1 handler type'));
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const v = probe[f];
    if (typeof v === 'number' && v < 0) errs.push(fieldErrors.invalid(`${path}.${f}`, v, 'must be greater than or equal to 0'));
  }
  return errs;
}

function validateContainers(containers: unknown, volumes: Set<string>, path: string): FieldError[] {
  const list = objs(containers);
  if (list.length === 0) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    const name = str(c.name);
    if (names.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
    else names.add(name);
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(fieldErrors.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
    errs.push(...validateProbe(c.livenessProbe, `${p}.livenessProbe`));
    errs.push(...validateProbe(c.readinessProbe, `${p}.readinessProbe`));
    errs.push(...validateProbe(c.startupProbe, `${p}.startupProbe`));
    if (isObj(c.livenessProbe) && typeof c.livenessProbe.successThreshold === 'number' && c.livenessProbe.successThreshold !== 1) {
      errs.push(fieldErrors.invalid(`${p}.livenessProbe.successThreshold`, c.livenessProbe.successThreshold, 'must be 1'));
    }
  });
  return errs;
}

function validateInitContainers(init: unknown, regular: unknown, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set(objs(regular).map((c) => str(c.name)));
  const names = new Set<string>();
  objs(init).forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    const name = str(c.name);
    if (names.has(name) || others.has(name)) errs.push(fieldErrors.duplicate(`${p}.name`, name));
    else names.add(name);
    const restartPolicy = c.restartPolicy;
    if (restartPolicy !== undefined && restartPolicy !== null && restartPolicy !== 'Always') {
      errs.push(fieldErrors.notSupported(`${p}.restartPolicy`, restartPolicy, ['Always']));
    }
    if (restartPolicy !== 'Always') {
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[probe] !== undefined && c[probe] !== null) errs.push(fieldErrors.forbidden(`${p}.${probe}`, 'may not be set for init containers without restartPolicy=Always'));
      }
    } else {
      errs.push(...validateProbe(c.livenessProbe, `${p}.livenessProbe`));
      errs.push(...validateProbe(c.readinessProbe, `${p}.readinessProbe`));
      errs.push(...validateProbe(c.startupProbe, `${p}.startupProbe`));
    }
  });
  return errs;
}

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

function validateMode(mode: unknown, path: string): FieldError[] {
  if (mode === undefined || mode === null) return [];
  if (typeof mode === 'number' && (mode > 0o777 || mode < 0)) return [fieldErrors.invalid(path, mode, FILE_MODE_ERROR)];
  return [];
}

function validateVolumeSource(v: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const present = VOLUME_SOURCE_FIELDS.filter((s) => v[s] !== undefined && v[s] !== null);
  if (present.length === 0) return [fieldErrors.required(path, 'must specify a volume type')];
  for (const extra of present.slice(1)) errs.push(fieldErrors.forbidden(`${path}.${extra}`, 'may not specify more than 1 volume type'));
  const source = present[0]!;
  const s = rec(v[source]);
  const p = `${path}.${source}`;
  switch (source) {
    case 'hostPath':
      if (!str(s.path)) errs.push(fieldErrors.required(`${p}.path`));
      if (s.type !== undefined && !['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'].includes(str(s.type))) {
        errs.push(fieldErrors.notSupported(`${p}.type`, s.type, ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket']));
      }
      break;
    case 'secret':
      if (!str(s.secretName)) errs.push(fieldErrors.required(`${p}.secretName`));
      errs.push(...validateMode(s.defaultMode, `${p}.defaultMode`));
      break;
    case 'configMap':
      if (!str(s.name)) errs.push(fieldErrors.required(`${p}.name`));
      else errs.push(...dns1123Subdomain(str(s.name), `${p}.name`));
      errs.push(...validateMode(s.defaultMode, `${p}.defaultMode`));
      break;
    case 'persistentVolumeClaim':
      if (!str(s.claimName)) errs.push(fieldErrors.required(`${p}.claimName`));
      break;
    case 'nfs':
      if (!str(s.server)) errs.push(fieldErrors.required(`${p}.server`));
      if (!str(s.path)) errs.push(fieldErrors.required(`${p}.path`));
      else if (!str(s.path).startsWith('/')) errs.push(fieldErrors.invalid(`${p}.path`, s.path, 'must be an absolute path'));
      break;
    case 'emptyDir': {
      const limit = parseQuantity(s.sizeLimit);
      if (s.sizeLimit !== undefined && limit !== undefined && limit < 0) errs.push(fieldErrors.forbidden(`${p}.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      if (s.medium !== undefined && !['', 'Memory', 'HugePages'].includes(str(s.medium)) && !str(s.medium).startsWith('HugePages-')) {
        errs.push(fieldErrors.notSupported(`${p}.medium`, s.medium, ['', 'Memory', 'HugePages', 'HugePages-<size>']));
      }
      break;
    }
    case 'downwardAPI':
    case 'projected':
      errs.push(...validateMode(s.defaultMode, `${p}.defaultMode`));
      break;
    default:
      break;
  }
  return errs;
}

/** ValidateVolumes: the set of valid volume names (for mounts) and the errors. */
export function validateVolumes(volumes: unknown, path: string): { names: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(volumes).forEach((v, i) => {
    const p = `${path}[${i}]`;
    const el = validateVolumeSource(v, p);
    const name = str(v.name);
    if (!name) el.push(fieldErrors.required(`${p}.name`));
    else el.push(...dns1123Label(name, `${p}.name`));
    if (names.has(name)) el.push(fieldErrors.duplicate(`${p}.name`, name));
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}

function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objs(tolerations).forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = str(t.key);
    if (key) errs.push(...isQualifiedName(key).map((msg) => fieldErrors.invalid(`${p}.key`, key, msg)));
    if (!key && t.operator !== 'Exists') errs.push(fieldErrors.invalid(`${p}.operator`, t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push(fieldErrors.invalid(`${p}.effect`, t.effect ?? '', 'effect must be \'NoExecute\' when `tolerationSeconds` is set'));
    }
    switch (t.operator ?? '') {
      case '':
      case 'Equal':
        if (t.value) errs.push(...isValidLabelValueErrs(str(t.value), `${p}.value`));
        break;
      case 'Exists':
        if (t.value) errs.push(fieldErrors.invalid(`${p}.operator`, t, 'value must be empty when `operator` is \'Exists\''));
        break;
      default:
        errs.push(fieldErrors.notSupported(`${p}.operator`, t.operator, ['Equal', 'Exists']));
    }
    if (t.effect) errs.push(...validateEnum(t.effect, `${p}.effect`, ['NoSchedule', 'PreferNoSchedule', 'NoExecute'], false));
  });
  return errs;
}

function isValidLabelValueErrs(value: string, path: string): FieldError[] {
  return validateLabels({ x: value }, path).filter((e) => e.value === value);
}

export interface PodSpecValidationOptions {
  /** Pod templates in workloads: ephemeral containers are forbidden. */
  template?: boolean;
}

/** ValidatePodSpec. */
export function validatePodSpec(spec: unknown, path: string, _opts: PodSpecValidationOptions = {}): FieldError[] {
  const s = rec(spec);
  const errs: FieldError[] = [];
  const volumes = validateVolumes(s.volumes, `${path}.volumes`);
  errs.push(...volumes.errs);
  errs.push(...validateContainers(s.containers, volumes.names, `${path}.containers`));
  errs.push(...validateInitContainers(s.initContainers, s.containers, volumes.names, `${path}.initContainers`));
  if (s.hostNetwork === true) {
    // validatePodHostNetworkDeps: with the host's network a container port is the host port.
    for (const field of ['containers', 'initContainers']) {
      objs(s[field]).forEach((c, i) => {
        objs(c.ports).forEach((p, j) => {
          if (typeof p.hostPort === 'number' && p.hostPort !== p.containerPort) {
            errs.push(fieldErrors.invalid(`${path}.${field}[${i}].ports[${j}].hostPort`, p.hostPort, 'must match `containerPort` when `hostNetwork` is true'));
          }
        });
      });
    }
  }
  errs.push(...validateEnum(s.restartPolicy, `${path}.restartPolicy`, ['Always', 'OnFailure', 'Never']));
  errs.push(...validateEnum(s.dnsPolicy, `${path}.dnsPolicy`, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  errs.push(...validateLabels(s.nodeSelector as Record<string, string> | undefined, `${path}.nodeSelector`));
  objs(s.imagePullSecrets).forEach((ref, i) => {
    if (!str(ref.name)) errs.push(fieldErrors.required(`${path}.imagePullSecrets[${i}].name`));
  });
  if (s.dnsPolicy === 'None' && !isObj(s.dnsConfig)) {
    errs.push(fieldErrors.required(`${path}.dnsConfig`, 'must provide `dnsConfig` when `dnsPolicy` is None'));
  }
  objs(s.readinessGates).forEach((g, i) => {
    const t = str(g.conditionType);
    errs.push(...isQualifiedName(t).map((msg) => fieldErrors.invalid(`${path}.readinessGates[${i}].conditionType`, t, msg)));
  });
  if (str(s.serviceAccountName)) errs.push(...dns1123Subdomain(str(s.serviceAccountName), `${path}.serviceAccountName`));
  if (str(s.nodeName)) errs.push(...dns1123Subdomain(str(s.nodeName), `${path}.nodeName`));
  if (typeof s.activeDeadlineSeconds === 'number') {
    const v = s.activeDeadlineSeconds;
    if (v < 1 || v > MAX_INT32) errs.push(fieldErrors.invalid(`${path}.activeDeadlineSeconds`, v, inclusiveRangeError(1, MAX_INT32)));
  }
  if (str(s.hostname)) errs.push(...dns1123Label(str(s.hostname), `${path}.hostname`));
  if (str(s.subdomain)) errs.push(...dns1123Label(str(s.subdomain), `${path}.subdomain`));
  errs.push(...validateTolerations(s.tolerations, `${path}.tolerations`));
  if (str(s.priorityClassName)) errs.push(...dns1123Subdomain(str(s.priorityClassName), `${path}.priorityClassName`));
  if (s.runtimeClassName !== undefined && s.runtimeClassName !== null) errs.push(...dns1123Subdomain(str(s.runtimeClassName), `${path}.runtimeClassName`));
  if (s.preemptionPolicy !== undefined && s.preemptionPolicy !== null) {
    errs.push(...validateEnum(s.preemptionPolicy, `${path}.preemptionPolicy`, ['Never', 'PreemptLowerPriority']));
  }
  if (isObj(s.os)) errs.push(...validateEnum(s.os.name, `${path}.os.name`, ['linux', 'windows']));
  objs(s.schedulingGates).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...isQualifiedName(name).map((msg) => fieldErrors.invalid(`${path}.schedulingGates[${i}].name`, name, msg)));
  });
  return errs;
}

/** ValidatePodTemplateSpec: the template's labels and annotations, then its spec. */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t = rec(template);
  const meta = rec(t.metadata);
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels as Record<string, string> | undefined, `${path}.metadata.labels`));
  errs.push(...validateAnnotations(meta.annotations as Record<string, string> | undefined, `${path}.metadata.annotations`));
  errs.push(...validatePodSpec(t.spec, `${path}.spec`, { template: true }));
  if (arr(rec(t.spec).ephemeralContainers).length > 0) {
    errs.push(fieldErrors.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}


